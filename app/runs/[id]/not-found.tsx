// /runs/<id> for a run the store does not hold: names the id, the runs list first.
import { NotFoundPage } from '@/components/home/NotFoundPage';

export const metadata = { title: 'Run not found · Stagecraft' };

export default function RunNotFound() {
  return <NotFoundPage kind="run" />;
}
