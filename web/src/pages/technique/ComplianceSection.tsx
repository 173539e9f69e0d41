import { type FragmentType, graphql, useFragment } from '../../gql';
import { Pager } from '../../components/Pager.tsx';

export const TechniqueComplianceFragment = graphql(`
  fragment TechniqueCompliance on Technique {
    complianceControls(limit: $pageSize, offset: $controlsOffset) { id frameworkName controlId name mappingTypes }
  }
`);

/** The compliance controls (NIST 800-53, CSA CCM) mapped to the technique, a page at a time. */
export function ComplianceSection(props: {
  technique: FragmentType<typeof TechniqueComplianceFragment>;
  pageSize: number;
  offset: number;
  onOffset(offset: number): void;
}) {
  const { complianceControls: controls } = useFragment(TechniqueComplianceFragment, props.technique);
  return (
    <section aria-labelledby="compliance-title">
      <h2 id="compliance-title">Compliance controls</h2>
      {controls.length === 0 && props.offset === 0 ? (
        <p>No compliance control is mapped to this technique.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Framework</th>
              <th scope="col">Control</th>
              <th scope="col">Name</th>
              <th scope="col">Mapping</th>
            </tr>
          </thead>
          <tbody>
            {controls.map((control) => (
              <tr key={control.id}>
                <td>{control.frameworkName}</td>
                <td>{control.controlId}</td>
                <td className="text">
                  <bdi>{control.name}</bdi>
                </td>
                <td>{control.mappingTypes.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="Compliance control"
        offset={props.offset}
        limit={props.pageSize}
        count={controls.length}
        more={controls.length === props.pageSize}
        onOffset={props.onOffset}
      />
    </section>
  );
}
