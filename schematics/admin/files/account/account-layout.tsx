/*
 * The layout of an admin with logins: the user menu offers the password change, the user's other organizations
 * (`GET /api/auth/organizations`, switched with `POST /api/auth/switch-organization`) and logout.
 */
import { type ReactNode, useEffect, useState } from 'react';
import { ListItemText, MenuItem } from '@mui/material';
import { Link } from 'react-router';
import { AppBar, Layout, type LayoutProps, Logout, useAuthProvider, useNotify, UserMenu, useUserMenu } from 'react-admin';
import type { OrganizationChoice, SvcAuthProvider } from '../providers';
import { PASSWORD_PAGE_PATH } from './password-page';

function PasswordMenuItem() {
  const menu = useUserMenu();
  return (
    <MenuItem component={Link} to={PASSWORD_PAGE_PATH} onClick={() => menu?.onClose()}>
      <ListItemText>Change password</ListItemText>
    </MenuItem>
  );
}

function OrganizationMenuItems() {
  const authProvider = useAuthProvider() as SvcAuthProvider | undefined;
  const notify = useNotify();
  const [organizations, setOrganizations] = useState<OrganizationChoice[]>([]);

  useEffect(() => {
    let live = true;
    authProvider
      ?.listOrganizations()
      .then((list) => live && setOrganizations(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [authProvider]);

  if (organizations.length < 2) return null;
  const label = (choice: OrganizationChoice): string => choice.name ?? `Organization ${choice.organizationId}`;
  const items: ReactNode[] = organizations.map((choice) => (
    <MenuItem
      key={choice.organizationId}
      disabled={choice.current}
      onClick={() => {
        authProvider
          ?.switchOrganization({ organizationId: choice.organizationId })
          // Every cached list and record belongs to the organization left behind: start the app afresh.
          .then(() => {
            window.location.hash = '#/';
            window.location.reload();
          })
          .catch((error: unknown) => notify(error instanceof Error ? error.message : 'Could not switch organization', { type: 'error' }));
      }}
    >
      <ListItemText>{choice.current ? `${label(choice)} (current)` : `Switch to ${label(choice)}`}</ListItemText>
    </MenuItem>
  ));
  return <>{items}</>;
}

function SvcUserMenu() {
  return (
    <UserMenu>
      <OrganizationMenuItems />
      <PasswordMenuItem />
      <Logout />
    </UserMenu>
  );
}

function SvcAppBar() {
  return <AppBar userMenu={<SvcUserMenu />} />;
}

export function SvcAccountLayout(props: LayoutProps) {
  return <Layout {...props} appBar={SvcAppBar} />;
}
