import * as Popover from '@radix-ui/react-popover';
import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';

const NotificationsDocument = graphql(`
  query Notifications {
    unreadNotificationCount
    notifications(limit: 10) { items { id title message createdAt isRead } }
  }
`);

const NotificationAddedDocument = graphql(`
  subscription NotificationAdded {
    notificationAdded { id }
  }
`);

const MarkAllReadDocument = graphql(`
  mutation MarkAllNotificationsRead {
    markAllNotificationsRead
  }
`);

/** The bell: unread count kept live by `notificationAdded`, the latest notifications in a popover. */
export function NotificationBell() {
  const [{ data }, refresh] = useQuery({ query: NotificationsDocument });
  const [added] = useSubscription({ query: NotificationAddedDocument });
  const [, markAllRead] = useMutation(MarkAllReadDocument);
  const latest = added.data?.notificationAdded.id;
  useEffect(() => {
    if (latest) refresh({ requestPolicy: 'network-only' });
  }, [latest, refresh]);
  const unread = data?.unreadNotificationCount ?? 0;
  const label = data ? `Notifications, ${unread} unread` : 'Notifications';
  const items = data?.notifications.items ?? [];
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-button bell" aria-label={label}>
        <Bell aria-hidden="true" />
        {unread > 0 && (
          <span className="badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" align="end" sideOffset={4} aria-label="Notifications">
          <h2 className="popover-title">Notifications</h2>
          {items.length === 0 ? (
            <p>No notifications yet.</p>
          ) : (
            <ul className="notification-list">
              {items.map((item) => (
                <li key={item.id} className={item.isRead ? undefined : 'unread'}>
                  <strong>{item.title}</strong>
                  <span>{item.message}</span>
                  <time dateTime={item.createdAt}>{new Date(item.createdAt).toLocaleString()}</time>
                </li>
              ))}
            </ul>
          )}
          {unread > 0 && (
            <button
              type="button"
              className="button"
              onClick={async () => {
                await markAllRead({});
                refresh({ requestPolicy: 'network-only' });
              }}
            >
              Mark all as read
            </button>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
