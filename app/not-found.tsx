// Any address with nothing behind it: an unknown page (an unknown skill or run has its own, beside its page).
import { NotFoundPage } from '@/components/home/NotFoundPage';

export const metadata = { title: 'Not found · Stagecraft' };

export default function NotFound() {
  return <NotFoundPage kind="page" />;
}
