import { useEffect, useState } from 'preact/hooks';
import { useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProfiles, connection, type WatchedRun, watchedRuns } from '../../lib/storage';

/** A run or step status as people read it: `status_succeeded` → "Succeeded". */
const statusText = (status: string) => t(`status_${status}` as MessageName);

/** An output value that is the address of a screenshot stored with the run. */
const ARTIFACT = /^\/v1\/automation\/runs\/[^/]+\/artifacts\/[^/]+$/;

/** The runs the worker follows or followed, newest first, updated live step by step. */
export function Runs({ focus }: { focus?: string | undefined }) {
  const runs = useItem(watchedRuns);
  const profiles = useItem(cachedProfiles)?.data;
  if (!runs?.length) return <p class="muted">{t('noRuns')}</p>;
  return (
    <ul class="rows">
      {runs.map((entry, index) => (
        <RunItem
          key={entry.run.id}
          entry={entry}
          open={focus ? entry.run.id === focus : index === 0}
          name={
            entry.run.name ??
            t(
              'runOnProfile',
              profiles?.find(({ id }) => id === entry.run.profile_id)?.name ?? entry.run.profile_id,
            )
          }
        />
      ))}
    </ul>
  );
}

function RunItem({
  entry: { run, phase, message },
  open,
  name,
}: {
  entry: WatchedRun;
  open: boolean;
  name: string;
}) {
  const [shown, setShown] = useState(open);
  const task = useTask();
  const outputs = Object.entries(run.output);
  const error =
    run.error ??
    run.steps.find((step) => step.status === 'failed')?.error ??
    (phase === 'dropped' ? message : null);
  return (
    <li class="run">
      <details open={shown} onToggle={(event) => setShown(event.currentTarget.open)}>
        <summary>
          <strong>{name}</strong> <span class={`status ${run.status}`}>{statusText(run.status)}</span>
        </summary>
        {shown && (
          <div class="stack">
            <ol class="steps">
              {run.steps.map((step) => (
                <li key={step.index} class={step.status}>
                  {step.action} <small class="muted">{statusText(step.status)}</small>
                </li>
              ))}
            </ol>
            {error && <RunError text={error} />}
            {outputs.length > 0 && (
              <dl>
                {outputs.map(([key, value]) => [
                  <dt key={`${key}t`}>{key}</dt>,
                  <dd key={key}>
                    {typeof value === 'string' && ARTIFACT.test(value) ? (
                      <Screenshot path={value} name={key} />
                    ) : typeof value === 'string' ? (
                      value
                    ) : (
                      JSON.stringify(value)
                    )}
                  </dd>,
                ])}
              </dl>
            )}
            {(run.status === 'queued' || run.status === 'running') && (
              <button
                type="button"
                disabled={task.busy}
                onClick={() => task.run(() => connector.send({ type: 'run.cancel', runId: run.id }))}
              >
                {t('cancelRun')}
              </button>
            )}
            <Problem error={task.error} />
          </div>
        )}
      </details>
    </li>
  );
}

/** A failure's sentence once; its technical detail, the bracket at its end, behind a toggle. */
function RunError({ text }: { text: string }) {
  const [, sentence = text, detail] = /^(.*) \(([^()]+)\)(\.?)$/s.exec(text) ?? [];
  return (
    <div class="problem stack">
      <p>{detail ? `${sentence}.` : text}</p>
      {detail && (
        <details>
          <summary>{t('technicalDetail')}</summary>
          <code>{detail}</code>
        </details>
      )}
    </div>
  );
}

/**
 * A screenshot as a thumbnail that opens full size. The popup fetches it from the service itself with the key
 * (the bytes do not pass through the worker) and shows it from an object URL.
 */
function Screenshot({ path, name }: { path: string; name: string }) {
  const [src, setSrc] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let url = '';
    connection
      .getValue()
      .then(({ serviceUrl, apiKey }) =>
        fetch(serviceUrl + path, { headers: { Authorization: `Bearer ${apiKey}` } }),
      )
      .then((response) => (response.ok ? response.blob() : Promise.reject()))
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => setFailed(true));
    return () => url && URL.revokeObjectURL(url);
  }, [path]);
  if (!src) return <span class="muted">{t(failed ? 'screenshotFailed' : 'loadingScreenshot')}</span>;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      <img src={src} alt={t('screenshotNamed', name)} class="thumb" />
    </a>
  );
}
