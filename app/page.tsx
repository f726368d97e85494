import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { SkillList } from '@/components/SkillList';

export const dynamic = 'force-dynamic';

function exampleSkills(): string[] {
  const dir = path.join(process.cwd(), 'examples');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((d) => existsSync(path.join(dir, d, 'skill.md'))).sort();
}

export default function Home() {
  const skills = exampleSkills();
  return (
    <main style={{ maxWidth: 760, margin: '40px auto', padding: '0 20px', lineHeight: 1.5 }}>
      <h1>Stagecraft</h1>
      <p>Author LLM skills and see exactly what happened when one ran.</p>
      <h2>Example skills</h2>
      <SkillList skills={skills} />
    </main>
  );
}
