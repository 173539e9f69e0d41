/** Validated out of all tests, as a bar and in words (the words carry it; the bar only repeats them). */
export function ProgressBar(props: { validated: number; total: number; percentage: number; label: string }) {
  const words = `${props.validated} of ${props.total} validated (${Math.round(props.percentage)}%)`;
  return (
    <span className="campaign-progress">
      <progress value={props.validated} max={Math.max(props.total, 1)} aria-label={`${props.label}: ${words}`} />
      <span>{words}</span>
    </span>
  );
}
