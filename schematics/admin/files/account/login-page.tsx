/*
 * The login page: e-mail and password; for a user of several organizations, the API's refusal lists them and the
 * page asks which one to sign in to.
 */
import { useState } from 'react';
import { CardContent } from '@mui/material';
import { Button, Form, Login, PasswordInput, required, SelectInput, TextInput, useLogin, useNotify } from 'react-admin';
import { type OrganizationOption, organizationsToPick } from '../providers';

interface LoginValues {
  readonly username?: string;
  readonly password?: string;
  readonly organizationId?: string;
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message !== '' ? error.message : 'Sign-in failed';
}

function SvcLoginForm() {
  const login = useLogin();
  const notify = useNotify();
  const [organizations, setOrganizations] = useState<OrganizationOption[]>([]);
  const [busy, setBusy] = useState(false);

  const submit = async (values: LoginValues): Promise<void> => {
    setBusy(true);
    try {
      await login({ username: values.username ?? '', password: values.password ?? '', organizationId: values.organizationId || undefined });
    } catch (error) {
      const choices = organizationsToPick(error);
      if (choices.length > 0 && organizations.length === 0) {
        setOrganizations(choices);
        notify('You belong to several organizations: pick the one to sign in to.', { type: 'info' });
      } else {
        notify(messageOf(error), { type: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={(values: Record<string, unknown>) => submit(values as LoginValues)}>
      <CardContent>
        <TextInput source="username" label="E-mail" type="email" autoComplete="username" validate={required()} fullWidth autoFocus />
        <PasswordInput source="password" autoComplete="current-password" validate={required()} fullWidth />
        {organizations.length > 0 ? (
          <SelectInput
            source="organizationId"
            label="Organization"
            choices={organizations.map(({ organizationId, name }) => ({ id: organizationId, name: name ?? organizationId }))}
            validate={required()}
            fullWidth
          />
        ) : null}
        <Button type="submit" variant="contained" label="Sign in" disabled={busy} fullWidth />
      </CardContent>
    </Form>
  );
}

export function SvcLoginPage() {
  return (
    <Login>
      <SvcLoginForm />
    </Login>
  );
}
