/**
 * A run's model as its user named it, for the API and the pages: a model script of the skill is
 * recorded at its version's copy under the data dir (`scripted:/…/bundles/<hash>/model.yaml`), and
 * is shown by its path in the skill (`scripted:model.yaml`). Display only: the record is unchanged
 * (resume, fork and export read it as recorded); any other spec is shown as recorded.
 */
const IN_VERSION_COPY = /^scripted:.*[\\/]bundles[\\/][0-9a-f]{64}[\\/](.+)$/;

export function shownModel(spec: string): string {
  const m = IN_VERSION_COPY.exec(spec);
  return m ? `scripted:${m[1].replaceAll('\\', '/')}` : spec;
}
