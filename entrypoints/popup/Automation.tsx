import { useEffect, useRef, useState } from 'preact/hooks';
import { outcomeText } from '../../components/bulk-text';
import { Field } from '../../components/Field';
import { useDraft, useItem, useTask } from '../../components/hooks';
import { Outcome } from '../../components/Outcome';
import { Problem } from '../../components/Problem';
import { bulkCostText } from '../../components/quota';
import type { Script } from '../../lib/api/inputs/automation';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { checkScript, type ScriptProblem, toScriptProblem } from '../../lib/automation/check-script';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { lastBatch, quota, savedScripts } from '../../lib/storage';
import { BatchCard } from './BatchCard';
import { BatchList } from './BatchList';
import { type Picked, ProfilePicker } from './ProfilePicker';
import { RunList, Runs } from './Runs';

const pretty = (script: Script) => JSON.stringify(script, null, 2);

/** Ready scripts to start from, by the message key of their title (a file, so that they cost the popup no script). */
function useExamples(): Record<string, Script> {
  const [examples, setExamples] = useState({});
  useEffect(() => {
    fetch('/scripts/examples.json')
      .then((response) => response.json())
      .then(setExamples, () => undefined);
  }, []);
  return examples;
}

/** Write or pick a script, run it on a profile, and follow the recent runs. `focus` is a run to show open. */
export function Automation({ focus }: { focus?: string | undefined }) {
  const saved = useItem(savedScripts);
  const batchId = useItem(lastBatch);
  const examples = useExamples();
  // The profiles picked, as JSON (a draft keeps text).
  const { draft, update, bind } = useDraft('script', { picked: '', name: '', text: '' });
  const task = useTask();
  const seen = useItem(quota);
  const [outcome, setOutcome] = useState('');
  const [nameMissing, setNameMissing] = useState(false);
  /** The name of the script just saved, said until the script or its name changes. */
  const [savedAs, setSavedAs] = useState('');
  const recentRuns = useRef<HTMLHeadingElement>(null);
  const checked = draft.text.trim() ? checkScript(draft.text) : { script: null, problems: [] };
  const problems = checked.notJson
    ? [{ step: null, message: t('scriptNotJson', checked.notJson) }]
    : checked.problems.length
      ? checked.problems
      : (task.error?.fieldErrors.map(toScriptProblem) ?? []);
  const picked = readPicked(draft.picked);
  const profileIds = picked.map(({ id }) => id);
  const several = profileIds.length > 1;
  const name = draft.name.trim();

  function load(event: Event) {
    // `example:<message key>` or `saved:<name>` (a name may hold colons).
    const [, kind, key = ''] = /^(\w+):(.*)$/s.exec((event.currentTarget as HTMLSelectElement).value) ?? [];
    const script = kind === 'example' ? examples[key] : saved?.[key];
    if (script) update({ text: pretty(script), name: kind === 'example' ? t(key as MessageName) : key });
  }

  async function save() {
    setNameMissing(!name);
    if (!name || !checked.script) return;
    const reply = await connector.send({ type: 'savedScript.set', name, script: checked.script });
    if (reply.ok) setSavedAs(`${name}\n${draft.text}`);
  }

  /** A run on the profile picked, or one batch on the several picked: the failures named in the outcome. */
  async function run(event: Event) {
    event.preventDefault();
    const script = checked.script;
    if (!script || profileIds.length === 0) return;
    setOutcome('');
    const named = name ? { name } : {};
    if (!several) {
      const reply = await task.run(() =>
        connector.send({ type: 'run.start', run: { profile_id: profileIds[0], script, ...named } }),
      );
      if (reply.ok) setOutcome(t('runStartedAbove'));
    } else {
      const request = { select: { ids: profileIds }, action: 'run' as const, script, ...named };
      const reply = await task.run(() => connector.send({ type: 'profiles.bulk', request }));
      if (!reply.ok) return;
      setOutcome(outcomeText('run', reply.value));
    }
    // The run or batch appears above the form, out of sight: it is brought into view.
    recentRuns.current?.scrollIntoView({ block: 'start' });
  }

  return (
    <section class="stack">
      <h2 ref={recentRuns}>{t('recentRuns')}</h2>
      <BatchCard />
      <BatchList />
      <Runs focus={focus} batchShown={Boolean(batchId)} />
      <form class="stack" onSubmit={run} noValidate>
        <ProfilePicker value={picked} onPick={(chosen) => update({ picked: JSON.stringify(chosen) })} />
        <Field as="select" label={t('loadScript')} value="" onInput={load}>
          <option value="">{t('chooseScript')}</option>
          <optgroup label={t('examples')}>
            {Object.keys(examples).map((key) => (
              <option key={key} value={`example:${key}`}>
                {t(key as MessageName)}
              </option>
            ))}
          </optgroup>
          {saved && Object.keys(saved).length > 0 && (
            <optgroup label={t('savedScripts')}>
              {Object.keys(saved).map((key) => (
                <option key={key} value={`saved:${key}`}>
                  {key}
                </option>
              ))}
            </optgroup>
          )}
        </Field>
        <Field
          as="textarea"
          label={t('script')}
          rows={6}
          spellcheck={false}
          class="code"
          placeholder={t('scriptPlaceholder')}
          hint={t('scriptHint')}
          error={problems.length ? <StepProblems problems={problems} /> : undefined}
          {...bind('text')}
        />
        <div class="bar end">
          <Field
            label={t('scriptName')}
            error={nameMissing && !name ? t('scriptNameMissing') : undefined}
            {...bind('name')}
          />
          <button type="button" disabled={!checked.script} onClick={save}>
            {t('saveScript')}
          </button>
          {saved?.[name] && (
            <button
              type="button"
              aria-label={t('forgetScriptNamed', name)}
              onClick={() => connector.send({ type: 'savedScript.set', name, script: null })}
            >
              {t('forgetScript')}
            </button>
          )}
        </div>
        {savedAs === `${name}\n${draft.text}` && <p role="status">{t('scriptSaved', name)}</p>}
        <Problem error={task.error} />
        {several && <p class="muted">{bulkCostText(seen, profileIds.length)}</p>}
        {checked.script && profileIds.length === 0 && <p class="muted">{t('pickProfileFirst')}</p>}
        <button
          type="submit"
          class="primary"
          disabled={task.busy || !checked.script || profileIds.length === 0}
        >
          {task.busy ? t('starting') : several ? t('runOnProfiles', profileIds.length) : t('run')}
        </button>
        {outcome && <Outcome text={outcome} />}
      </form>
      {profileIds.length === 1 && <ProfileHistory key={profileIds[0]} profileId={profileIds[0] as string} />}
    </section>
  );
}

/** The profiles picked, from the draft's text. */
function readPicked(text: string): Picked[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as Picked[]) : [];
  } catch {
    return [];
  }
}

/** The profile's latest runs as the service has them (whoever started them), read when opened. */
function ProfileHistory({ profileId }: { profileId: string }) {
  const [runs, setRuns] = useState<AutomationRun[] | null>(null);
  const task = useTask();
  async function read(event: Event) {
    if (!(event.currentTarget as HTMLDetailsElement).open) return;
    const reply = await task.run(() => connector.send({ type: 'runs.ofProfile', profileId }));
    if (reply.ok) setRuns(reply.value);
  }
  return (
    <details onToggle={read}>
      <summary>{t('profileHistory')}</summary>
      <Problem error={task.error} />
      {runs &&
        (runs.length > 0 ? (
          <RunList runs={runs.map((run) => ({ run, dropped: null }))} />
        ) : (
          <p class="muted">{t('noProfileRuns')}</p>
        ))}
    </details>
  );
}

function StepProblems({ problems }: { problems: ScriptProblem[] }) {
  return (
    <ul>
      {problems.map(({ step, message }) => (
        <li key={`${step}${message}`}>{step === null ? message : t('stepProblem', step + 1, message)}</li>
      ))}
    </ul>
  );
}
