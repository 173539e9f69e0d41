import { useState } from 'react';
import { Link } from 'react-router';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { type Colouring, type Overlay, statusOf, swatchClass } from './coverage.ts';

export const TechniqueCellFragment = graphql(`
  fragment TechniqueCell on HeatmapTechnique {
    ttpId
    name
    status
    score
    subTechniques { ...SubTechniqueCell }
  }
`);

const SubTechniqueCellFragment = graphql(`
  fragment SubTechniqueCell on HeatmapTechnique {
    ttpId
    name
    status
    score
  }
`);

type Cell = { ttpId: string; name: string; status: Parameters<typeof statusOf>[0]; score: number };

function CellLink({ cell, colouring, overlay }: { cell: Cell; colouring: Colouring; overlay: Overlay }) {
  const { label, glyph } = statusOf(cell.status);
  const score = Math.round(cell.score);
  const confidence = overlay.confidence ? (overlay.confidence.get(cell.ttpId) ?? 0) : undefined;
  const used = overlay.actor?.ttpIds.has(cell.ttpId);
  const change = overlay.changes?.get(cell.ttpId);
  const marks = `${used ? ' in-actor' : ''}${change ? ' changed' : ''}`;
  return (
    <Link to={`/techniques/${encodeURIComponent(cell.ttpId)}`} className={`cell-link${marks}`} data-nav="" tabIndex={-1}>
      <span className={swatchClass(colouring, cell, overlay)} aria-hidden="true" />
      <span className="cell-text">
        <span className="cell-id">{cell.ttpId}</span> {cell.name}
        <span className="cell-status">
          <span aria-hidden="true">{glyph}</span> {label}, score {score}
          {confidence !== undefined && `, confidence ${confidence}`}
        </span>
        {used && <span className="cell-mark">actor</span>}
        {change && (
          <span className="cell-mark">
            changed: {statusOf(change.before).label} → {statusOf(change.after).label}
          </span>
        )}
      </span>
    </Link>
  );
}

/** A technique of the matrix: its status and score, its sub-techniques folded under it with their count. */
export function TechniqueCell(props: { technique: FragmentType<typeof TechniqueCellFragment>; colouring: Colouring; overlay: Overlay }) {
  const technique = useFragment(TechniqueCellFragment, props.technique);
  const subs = useFragment(SubTechniqueCellFragment, technique.subTechniques);
  const [open, setOpen] = useState(false);
  const listId = `subs-${technique.ttpId}`;
  const { overlay } = props;
  const usedSubs = overlay.actor ? subs.filter((sub) => overlay.actor?.ttpIds.has(sub.ttpId)).length : 0;
  const changedSubs = overlay.changes ? subs.filter((sub) => overlay.changes?.has(sub.ttpId)).length : 0;
  const foldMarks = [usedSubs && `${usedSubs} actor`, changedSubs && `${changedSubs} changed`].filter(Boolean).join(', ');
  return (
    <li className="cell">
      <CellLink cell={technique} colouring={props.colouring} overlay={props.overlay} />
      {subs.length > 0 && (
        <>
          <button
            type="button"
            className={`fold${foldMarks ? ' marked' : ''}`}
            data-nav=""
            tabIndex={-1}
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'} {subs.length} sub-technique{subs.length === 1 ? '' : 's'}
            <span className="visually-hidden"> of {technique.ttpId}</span>
            {foldMarks && ` (${foldMarks})`}
          </button>
          <ul id={listId} className="subs" hidden={!open}>
            {open &&
              subs.map((sub) => (
                <li key={sub.ttpId} className="cell sub">
                  <CellLink cell={sub} colouring={props.colouring} overlay={props.overlay} />
                </li>
              ))}
          </ul>
        </>
      )}
    </li>
  );
}
