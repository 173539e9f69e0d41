import * as Menu from '@radix-ui/react-dropdown-menu';
import { CircleUser } from 'lucide-react';
import { Link } from 'react-router';
import { useSession } from '../session.tsx';

export function UserMenu() {
  const { viewer, signOut } = useSession();
  const name = viewer.displayName || viewer.username;
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className="icon-button with-text">
        <CircleUser aria-hidden="true" />
        <span>{name}</span>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={4}>
          <Menu.Label className="menu-label">
            Signed in as {viewer.username} ({viewer.role.replace('_', ' ')})
          </Menu.Label>
          <Menu.Separator className="menu-separator" />
          <Menu.Item className="menu-item" asChild>
            <Link to="/profile">Profile and API keys</Link>
          </Menu.Item>
          <Menu.Item className="menu-item" onSelect={() => void signOut()}>
            Sign out
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
