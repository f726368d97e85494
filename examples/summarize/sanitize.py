"""PII sanitising for summarize's postprocessor: e-mail addresses and phone
numbers in the paragraphs are replaced before the caller sees them."""
import re

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PHONE = re.compile(r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?)?\d{2,4}[ .-]\d{3,4}[ .-]?\d{3,4}\b")


def sanitize(value):
    count = 0
    out = []
    for p in value["paragraphs"]:
        p, n1 = EMAIL.subn("[email]", p)
        p, n2 = PHONE.subn("[phone]", p)
        count += n1 + n2
        out.append(p)
    return {"paragraphs": out, "redactions": count}
