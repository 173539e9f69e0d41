import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { useSession } from '../../session.tsx';
import { problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const TimerPartFragment = graphql(`
  fragment TimerPart on Test {
    id
    state
    timerRunning
    elapsedSeconds
  }
`);

const PauseDocument = graphql(`mutation PauseTestTimer($id: UUID!) { pauseTestTimer(id: $id) { id ...TimerPart } }`);
const ResumeDocument = graphql(`mutation ResumeTestTimer($id: UUID!) { resumeTestTimer(id: $id) { id ...TimerPart } }`);

/** The working states, where the server lets a timer run (its TIMED_STATES); elsewhere only the total is shown. */
const TIMED = ['red_executing', 'blue_evaluating'];

export const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
};

/** Seconds on the clock, counted on in the browser while it runs. */
function useElapsed(elapsedSeconds: number, running: boolean) {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    if (!running) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [running]);
  return elapsedSeconds + (running ? Math.max(0, Math.floor((now - since) / 1000)) : 0);
}

/** Working time of the test, with pause and resume for the roles the server's `allButViewer` set admits. */
export function Timer(props: { test: FragmentType<typeof TimerPartFragment>; onChanged(): void }) {
  const test = useFragment(TimerPartFragment, props.test);
  const { viewer } = useSession();
  const elapsed = useElapsed(test.elapsedSeconds, test.timerRunning);
  const [problem, setProblem] = useState<string>();
  const [{ fetching: pausing }, pause] = useMutation(PauseDocument);
  const [{ fetching: resuming }, resume] = useMutation(ResumeDocument);
  const may = inRoleSet(viewer, 'allButViewer');
  const act = async (run: (variables: { id: string }) => Promise<{ error?: Parameters<typeof problemOf>[0] }>) => {
    const result = await run({ id: test.id });
    setProblem(problemOf(result.error)?.message);
    props.onChanged();
  };
  return (
    <section aria-labelledby="timer-title" className="timer">
      <h2 id="timer-title">Working time</h2>
      <p>
        <span className="clock" data-testid="elapsed">
          {clock(elapsed)}
        </span>{' '}
        <span data-testid="timer-state">{test.timerRunning ? 'running' : 'paused'}</span>
      </p>
      {may && test.timerRunning && (
        <button type="button" className="button" disabled={pausing} onClick={() => void act(pause)}>
          Pause timer
        </button>
      )}
      {may && !test.timerRunning && TIMED.includes(test.state) && (
        <button type="button" className="button" disabled={resuming} onClick={() => void act(resume)}>
          Resume timer
        </button>
      )}
      <Outcome problem={problem} />
    </section>
  );
}
