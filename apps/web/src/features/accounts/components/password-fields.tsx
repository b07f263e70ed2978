import { PASSWORD_MIN_LENGTH } from '@atrium/contracts/texts';
import { TextField } from '../../../components/ui/text-field';

/** Long enough and confirmed (the server checks the common-password list too). */
export const passwordsReady = (password: string, confirm: string) =>
  [...password].length >= PASSWORD_MIN_LENGTH && password === confirm;

/** A rough strength hint from length and variety; the server has the last word. */
export function strengthHint(password: string): string {
  const length = [...password].length;
  if (length === 0) return `At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a good password.`;
  if (length < PASSWORD_MIN_LENGTH) return `Too short: ${PASSWORD_MIN_LENGTH - length} more characters.`;
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((re) => re.test(password)).length;
  if (length >= 16 || kinds >= 3) return 'Strength: good.';
  return 'Strength: fair. Longer is stronger.';
}

/** New password and its confirmation, with the strength hint and the mismatch error. */
export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  minLength,
  label = 'Password',
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  minLength: number;
  label?: string;
}) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        minLength={minLength}
        required
        hint={strengthHint(password)}
      />
      <TextField
        label="Confirm password"
        type="password"
        value={confirm}
        onChange={onConfirm}
        autoComplete="new-password"
        required
        error={confirm && confirm !== password ? 'The passwords do not match.' : null}
      />
    </>
  );
}
