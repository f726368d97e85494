// /skills/<name> for a skill the store does not hold: names it, the skills list first.
import { NotFoundPage } from '@/components/home/NotFoundPage';

export const metadata = { title: 'Skill not found · Stagecraft' };

export default function SkillNotFound() {
  return <NotFoundPage kind="skill" />;
}
