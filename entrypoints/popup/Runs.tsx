import { useEffect, useState } from 'preact/hooks';
import { useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { profileNameOf } from '../../lib/profile-name';
import { outputsInStepOrder, runDuration } from '../../lib/run-reading';
import { cachedProfiles, connection, watchedRuns } from '../../lib/storage';
import { exactly, fromNow } from '../../lib/when';
import { WatchButton } from './WatchButton';

/** A run or step status as people read it: `status_succeeded` → "Succeeded". */
export const statusText = (status: string) => t(`status_${status}` as MessageName);

/** An output value that is the address of a screenshot stored with the run. */
const ARTIFACT = /^\/v1\/automation\/runs\/[^/]+\/artifacts\/[^/]+$/;

/**
 * The runs the worker follows or followed, newest first, updated live step by step; with none, a hint to start
 * one, unless the last batch's card (`batchShown`) is there to say what ran.
 */
export function Runs({ focus, batchShown = false }: { focus?: string | undefined; batchShown?: boolean }) {
  const runs = useItem(watchedRuns);
  const unseen = runs?.some((entry) => entry.phase !== 'watching' && !entry.seen) ?? false;
  // Runs on screen count as seen, one that ends while they are too: the toolbar badge's mark goes.
  useEffect(() => {
    if (unseen) void connector.send({ type: 'runs.seen' });
  }, [unseen]);
  if (!runs?.length) return batchShown ? null : <p class="muted">{t('noRuns')}</p>;
  return (
    <RunList
      runs={runs.map(({ run, phase, message }) => ({ run, dropped: phase === 'dropped' ? message : null }))}
      focus={focus}
    />
  );
}

interface Listed {
  run: AutomationRun;
  /** Why the service no longer knows it, as a sentence. */
  dropped: string | null;
}

/** Runs as rows that open on their steps, outputs and error; `focus` (else the first) open. */
export function RunList({ runs, focus }: { runs: Listed[]; focus?: string | undefined }) {
  const profiles = useItem(cachedProfiles)?.data;
  return (
    <ul class="rows">
      {runs.map(({ run, dropped }, index) => (
        <RunItem
          key={run.id}
          run={run}
          dropped={dropped}
          open={focus ? run.id === focus : index === 0}
          profile={profileNameOf(run, profiles)}
        />
      ))}
    </ul>
  );
}

/** Runs found by a search, or the sentence saying there are none. */
export function FoundRuns({ runs, none }: { runs: AutomationRun[]; none: string }) {
  return runs.length ? (
    <RunList runs={runs.map((run) => ({ run, dropped: null }))} />
  ) : (
    <p class="muted">{none}</p>
  );
}

function RunItem({ run, dropped, open, profile }: Listed & { open: boolean; profile: string }) {
  const [shown, setShown] = useState(open);
  const task = useTask();
  const outputs = outputsInStepOrder(run);
  const duration = runDuration(run);
  const error = run.error ?? run.steps.find((step) => step.status === 'failed')?.error ?? dropped;
  const active = run.status === 'queued' || run.status === 'running';
  return (
    <li class="run">
      <details open={shown} onToggle={(event) => setShown(event.currentTarget.open)}>
        <summary>
          <strong>{run.name ?? t('runOnProfile', profile)}</strong>{' '}
          <span class={`status ${run.status}`}>{statusText(run.status)}</span>
          <small class="muted meta">
            {run.name && `${profile} · `}
            <time dateTime={run.created_at} title={exactly(run.created_at)}>
              {fromNow(run.created_at)}
            </time>
            {duration && ` · ${duration}`}
          </small>
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
            <button
              type="button"
              disabled={task.busy}
              onClick={() =>
                task.run<unknown>(() =>
                  active
                    ? connector.send({ type: 'run.cancel', runId: run.id })
                    : connector.send({ type: 'run.rerun', runId: run.id }),
                )
              }
            >
              {t(active ? 'cancelRun' : 'runAgain')}
            </button>
            {run.status === 'running' && run.session_id && (
              <WatchButton sessionId={run.session_id} name={run.name ?? t('runOnProfile', profile)} />
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
 * A screenshot as a thumbnail that shows at the popup's full width when asked. The popup fetches it from the service itself with the key
 * (the bytes do not pass through the worker) and shows it from an object URL.
 */
function Screenshot({ path, name }: { path: string; name: string }) {
  const [src, setSrc] = useState<string>();
  const [failed, setFailed] = useState(false);
  const [full, setFull] = useState(false);
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
    <div class="stack">
      <img src={src} alt={t('screenshotNamed', name)} class={full ? 'shot' : 'thumb'} />
      <button type="button" aria-pressed={full} onClick={() => setFull(!full)}>
        {t(full ? 'viewSmaller' : 'viewFullSize')}
      </button>
    </div>
  );
}
