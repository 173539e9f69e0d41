import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { RequireRoleSet } from './access.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { AppShell } from './shell/AppShell.tsx';

const MatrixPage = lazy(() => import('./pages/matrix/MatrixPage.tsx'));
const TechniquePage = lazy(() => import('./pages/technique/TechniquePage.tsx'));
const TestPage = lazy(() => import('./pages/test/TestPage.tsx'));
const BoardPage = lazy(() => import('./pages/board/BoardPage.tsx'));
const UsersPage = lazy(() => import('./pages/admin/UsersPage.tsx'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage.tsx'));
const SearchPage = lazy(() => import('./pages/search/SearchPage.tsx'));

/** The signed-in app: one code-split chunk per page. */
export function AppRoutes() {
  return (
    <AppShell>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <Routes>
          <Route path="/" element={<Navigate to="/matrix" replace />} />
          <Route path="/matrix" element={<MatrixPage />} />
          <Route path="/techniques/:ttpId" element={<TechniquePage />} />
          <Route path="/board" element={<BoardPage />} />
          <Route path="/tests/:id" element={<TestPage />} />
          <Route
            path="/admin/users"
            element={
              <RequireRoleSet set="admin">
                <UsersPage />
              </RequireRoleSet>
            }
          />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/search" element={<SearchPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
