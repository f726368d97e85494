"""Deterministic rendering for blog_writer's postprocessor: the LLM writes
{title, body}; these compute html_rendered, word_count and reading_minutes."""
import html
import math
import re

WORDS_PER_MINUTE = 200


def to_html(value):
    paragraphs = [p.strip() for p in value["body"].split("\n\n") if p.strip()]
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return {"html_rendered": f"<article><h1>{html.escape(value['title'])}</h1>\n{body}</article>"}


def count_words(value):
    words = len(re.findall(r"\b[\w'-]+\b", value["body"]))
    return {"word_count": words, "reading_minutes": max(1, math.ceil(words / WORDS_PER_MINUTE))}
