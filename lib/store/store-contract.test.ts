// The StorePort contract against the in-memory reference implementation: the
// suite that PrismaStore must also pass (prisma-store.db.test.ts).
import { MemoryStore } from '../kernel/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract('MemoryStore', async () => new MemoryStore());
