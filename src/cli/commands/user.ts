import { isValidScope } from '../../analytics/permissions.ts';
import { createUser, findUserByEmail, normalizeEmail, setMembership, setPasswordHash, type Role } from '../../store/app/users.ts';
import { deleteUserSessions } from '../../store/app/dashboard-sessions.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, generatePassword, hashPassword, verifyPassword } from '../../dashboard/passwords.ts';
import { CommandError, requireOption, workspaceOption, type Command, type CommandArgs } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * `user create --email E --password P --workspace ID [--role owner|viewer] [--scopes ...]`: a
 * dashboard user, or another workspace for an existing one (their current password is then
 * required, so the command never changes a password). docs/dashboard.md.
 */
function emailOption(args: CommandArgs): string {
  const email = normalizeEmail(requireOption(args, 'email'));
  if (!EMAIL.test(email) || email.length > 254) throw new CommandError('--email must be an email address');
  return email;
}

function checkedPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new CommandError(`--password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  return password;
}

export const createUserCommand: Command = async (ctx, args) => {
  const email = emailOption(args);
  const password = checkedPassword(requireOption(args, 'password'));
  const workspaceId = workspaceOption(args);
  const role = (args.options.role ?? 'owner') as Role;
  if (role !== 'owner' && role !== 'viewer') throw new CommandError('--role must be owner or viewer');
  let scopes: string[] | null = null;
  if (args.options.scopes !== undefined) {
    if (role === 'owner') throw new CommandError('--scopes applies to viewers; an owner sees everything');
    scopes = [...new Set(String(args.options.scopes).split(',').map((s) => s.trim()).filter(Boolean))];
    const invalid = scopes.filter((s) => !isValidScope(s) || s === 'admin:admin');
    if (scopes.length === 0 || invalid.length) throw new CommandError(`Invalid scopes: ${invalid.join(', ') || '(none)'}`);
  }
  await requireWorkspace(ctx, workspaceId);
  let user = await findUserByEmail(ctx.stores.db, email);
  if (user && !(await verifyPassword(password, user.passwordHash))) {
    throw new CommandError(`A user ${email} exists; give their current password to add a workspace`);
  }
  user ??= await createUser(ctx.stores.db, email, await hashPassword(password));
  await setMembership(ctx.stores.db, { userId: user.id, workspaceId, role, scopes });
  return { email, workspace_id: workspaceId, role, scopes };
};

/**
 * `user reset-password --email E [--password P]`: a new password (generated and printed once when
 * none is given), and every dashboard session of the user ends, so whoever held the old password
 * is signed out too. docs/dashboard.md.
 */
export const resetPasswordCommand: Command = async (ctx, args) => {
  const email = emailOption(args);
  const given = args.options.password;
  if (given !== undefined && typeof given !== 'string') throw new CommandError('--password needs a value (- reads it from standard input)');
  const password = given === undefined ? generatePassword() : checkedPassword(given);
  const user = await findUserByEmail(ctx.stores.db, email);
  if (!user) throw new CommandError(`No dashboard user ${email}`);
  await setPasswordHash(ctx.stores.db, user.id, await hashPassword(password));
  const signedOut = await deleteUserSessions(ctx.stores.db, user.id);
  return { email, ...(given === undefined ? { password } : {}), sessions_signed_out: signedOut };
};
