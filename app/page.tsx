import path from 'node:path';
import { SkillList } from '@/components/SkillList';
import { exampleBundles } from '@/lib/server/app/examples';

export const dynamic = 'force-dynamic';

export default function Home() {
  const skills = exampleBundles(path.join(process.cwd(), 'examples'));
  return (
    <main style={{ maxWidth: 760, margin: '40px auto', padding: '0 20px', lineHeight: 1.5 }}>
      <h1>Stagecraft</h1>
      <p>Author LLM skills and see exactly what happened when one ran.</p>
      <h2>Example skills</h2>
      <SkillList skills={skills} />
    </main>
  );
}
