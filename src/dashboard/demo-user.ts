import type { AppDatabase } from '../store/app-db.ts';
import { createUser, setMembership } from '../store/app/users.ts';
import { generatePassword, hashPassword } from './passwords.ts';

export interface DemoUser {
  email: string;
  password: string;
}

/** The demo workspace's owner, with a random password printed once by `npm start`. */
export async function createDemoUser(db: AppDatabase, workspaceId: number): Promise<DemoUser> {
  const email = 'demo@storelens.local';
  const password = generatePassword();
  const user = await createUser(db, email, await hashPassword(password));
  await setMembership(db, { userId: user.id, workspaceId, role: 'owner', scopes: null });
  return { email, password };
}
