// The skills home: every skill, when it was saved and how its last run went.
import { examplesDir } from '@/lib/server/app/app-host';
import { listAppSkills } from '@/lib/server/app/list-app-skills';
import { exampleBundles } from '@/lib/server/skills/load-examples';
import { NewSkillDialog } from '@/components/home/NewSkillDialog';
import { SkillTable } from '@/components/home/SkillTable';
import { EmptySkills } from '@/components/home/EmptySkills';
import styles from '@/components/home/Home.module.css';
import { plural } from '@/lib/kernel/plural';
import { isFirstVisit } from '@/components/home/first-steps';
import { storePage } from '@/app/store-page';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Skills · Stagecraft' };

export default storePage('/', async function HomePage() {
  const { skills, examples: loaded } = await listAppSkills();
  const examples = exampleBundles(examplesDir());
  const now = Date.now();
  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <div>
          <h1>Skills</h1>
          <p className={styles.lede}>
            {skills.length === 0
              ? 'Author LLM skills and see exactly what happened when one ran.'
              : `${plural(skills.length, 'skill')}. Open one to edit its skill.md, see its graph and run it.`}
          </p>
        </div>
        <NewSkillDialog skills={skills.map((s) => s.name)} examples={examples} />
      </div>
      {loaded && !loaded.ok ? (
        <p className={styles.notice} role="alert">
          The example skills could not be loaded: {loaded.message}
        </p>
      ) : null}
      {isFirstVisit(skills) ? (
        <p className={styles.notice} data-testid="first-steps">
          New here? Each example runs offline, its model scripted by its bundle&apos;s model.yaml: open one below and press <strong>Run</strong>, and
          its run page then shows every step — what each was handed and what it did.
        </p>
      ) : null}
      {skills.length ? <SkillTable skills={skills} now={now} /> : <EmptySkills exampleCount={examples.length} />}
    </main>
  );
});
