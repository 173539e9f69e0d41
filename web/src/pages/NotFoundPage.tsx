import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section aria-labelledby="not-found">
      <h1 id="not-found">Page not found</h1>
      <p>
        There is no page at this address. Go to the <Link to="/matrix">coverage matrix</Link>.
      </p>
    </section>
  );
}
