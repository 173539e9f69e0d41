import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { RequireRoleSet } from './access.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { AppShell } from './shell/AppShell.tsx';

const MatrixPage = lazy(() => import('./pages/matrix/MatrixPage.tsx'));
const TechniquePage = lazy(() => import('./pages/technique/TechniquePage.tsx'));
const TestPage = lazy(() => import('./pages/test/TestPage.tsx'));
const NewTestPage = lazy(() => import('./pages/test/NewTestPage.tsx'));
const BoardPage = lazy(() => import('./pages/board/BoardPage.tsx'));
const AdminLayout = lazy(() => import('./pages/admin/AdminLayout.tsx'));
const UsersPage = lazy(() => import('./pages/admin/UsersPage.tsx'));
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage.tsx'));
const ReportsPage = lazy(() => import('./pages/reports/ReportsPage.tsx'));
const CampaignsPage = lazy(() => import('./pages/campaigns/CampaignsPage.tsx'));
const CampaignPage = lazy(() => import('./pages/campaigns/CampaignPage.tsx'));
const AlertsPage = lazy(() => import('./pages/alerts/AlertsPage.tsx'));
const RevalidationPage = lazy(() => import('./pages/revalidation/RevalidationPage.tsx'));
const AttackPathsPage = lazy(() => import('./pages/attack-paths/AttackPathsPage.tsx'));
const AttackPathPage = lazy(() => import('./pages/attack-paths/AttackPathPage.tsx'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage.tsx'));
const SearchPage = lazy(() => import('./pages/search/SearchPage.tsx'));
const DataSourcesPage = lazy(() => import('./pages/admin/DataSourcesPage.tsx'));
const WebhooksPage = lazy(() => import('./pages/admin/WebhooksPage.tsx'));
const TrackerPage = lazy(() => import('./pages/admin/TrackerPage.tsx'));
const FeedsPage = lazy(() => import('./pages/admin/FeedsPage.tsx'));
const EmailPage = lazy(() => import('./pages/admin/EmailPage.tsx'));
const SsoPage = lazy(() => import('./pages/admin/SsoPage.tsx'));
const ScoreWeightsPage = lazy(() => import('./pages/admin/ScoreWeightsPage.tsx'));
const AuditLogPage = lazy(() => import('./pages/admin/AuditLogPage.tsx'));
const KnowledgePage = lazy(() => import('./pages/knowledge/KnowledgePage.tsx'));
const PlaybookPage = lazy(() => import('./pages/knowledge/PlaybookPage.tsx'));
const LessonPage = lazy(() => import('./pages/knowledge/LessonPage.tsx'));
const NewLessonPage = lazy(() => import('./pages/knowledge/LessonPage.tsx').then((module) => ({ default: module.NewLessonPage })));
const NewPlaybookPage = lazy(() => import('./pages/knowledge/NewPlaybookPage.tsx'));

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
          <Route
            path="/tests/new"
            element={
              <RequireRoleSet set="leads">
                <NewTestPage />
              </RequireRoleSet>
            }
          />
          <Route path="/tests/:id" element={<TestPage />} />
          <Route path="/admin" element={<AdminLayout />}>
            <Route index element={<Navigate to="/admin/users" replace />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="data-sources" element={<DataSourcesPage />} />
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="trackers" element={<TrackerPage />} />
            <Route path="feeds" element={<FeedsPage />} />
            <Route path="email" element={<EmailPage />} />
            <Route path="sso" element={<SsoPage />} />
            <Route path="score-weights" element={<ScoreWeightsPage />} />
            <Route path="audit-log" element={<AuditLogPage />} />
          </Route>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/reports" element={<ReportsPage />} />
          <Route path="/campaigns" element={<CampaignsPage />} />
          <Route path="/campaigns/:id" element={<CampaignPage />} />
          <Route path="/alerts" element={<AlertsPage />} />
          <Route
            path="/revalidation"
            element={
              <RequireRoleSet set="blueLead">
                <RevalidationPage />
              </RequireRoleSet>
            }
          />
          <Route path="/attack-paths" element={<AttackPathsPage />} />
          <Route path="/attack-paths/:id" element={<AttackPathPage />} />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/search" element={<SearchPage />} />
          <Route path="/knowledge" element={<KnowledgePage />} />
          <Route path="/knowledge/playbooks/:id" element={<PlaybookPage />} />
          <Route path="/knowledge/lessons/new" element={<NewLessonPage />} />
          <Route path="/knowledge/lessons/:id" element={<LessonPage />} />
          <Route path="/knowledge/playbooks/new" element={<NewPlaybookPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
