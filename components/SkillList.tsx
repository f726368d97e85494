// The list of example skills on the home page (the editor and inspector come next).
export function SkillList({ skills }: { skills: string[] }) {
  if (skills.length === 0) return <p>No example skills found.</p>;
  return (
    <ul aria-label="Example skills">
      {skills.map((s) => (
        <li key={s}>
          <code>{s}</code> — run it with <code>npx stagecraft run examples/{s} --input examples/{s}/input.json</code>
        </li>
      ))}
    </ul>
  );
}
