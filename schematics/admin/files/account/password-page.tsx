/* `#/account/password`: the logged-in user changes their password (`POST /api/auth/password`). */
import { Card, CardContent } from '@mui/material';
import { Button, Form, PasswordInput, required, Title, useAuthProvider, useNotify, useRedirect } from 'react-admin';
import type { SvcAuthProvider } from '../providers';

interface PasswordValues {
  readonly currentPassword?: string;
  readonly newPassword?: string;
  readonly confirmPassword?: string;
}

export const PASSWORD_PAGE_PATH = '/account/password';

function fieldErrors(error: unknown): Record<string, string> | undefined {
  const errors = error !== null && typeof error === 'object' ? (error as { body?: { errors?: unknown } }).body?.errors : undefined;
  return errors !== null && typeof errors === 'object' && !Array.isArray(errors) ? (errors as Record<string, string>) : undefined;
}

export function SvcPasswordPage() {
  const authProvider = useAuthProvider() as SvcAuthProvider | undefined;
  const notify = useNotify();
  const redirect = useRedirect();

  // What this returns is shown under the inputs it names (react-admin's submission errors).
  const submit = async (values: PasswordValues): Promise<Record<string, string> | undefined> => {
    if (values.newPassword !== values.confirmPassword) return { confirmPassword: 'The two new passwords differ' };
    try {
      await authProvider?.changePassword({ currentPassword: values.currentPassword ?? '', newPassword: values.newPassword ?? '' });
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors) return errors;
      notify(error instanceof Error ? error.message : 'The password was not changed', { type: 'error' });
      return undefined;
    }
    notify('Your password was changed. Your other sessions have ended.', { type: 'success' });
    redirect('/');
    return undefined;
  };

  return (
    <Card sx={{ mt: 2, maxWidth: 480 }}>
      <Title title="Change password" />
      <CardContent>
        <Form onSubmit={(values: Record<string, unknown>) => submit(values as PasswordValues)}>
          <PasswordInput source="currentPassword" label="Current password" autoComplete="current-password" validate={required()} fullWidth />
          <PasswordInput source="newPassword" label="New password" autoComplete="new-password" validate={required()} fullWidth />
          <PasswordInput source="confirmPassword" label="New password again" autoComplete="new-password" validate={required()} fullWidth />
          <Button type="submit" variant="contained" label="Change password" />
        </Form>
      </CardContent>
    </Card>
  );
}
