import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { useDraft, useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import type { Script } from '../../lib/api/inputs/automation';
import { checkScript, type ScriptProblem, toScriptProblem } from '../../lib/automation/check-script';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProfiles, savedScripts } from '../../lib/storage';
import { ProfilePicker } from './ProfilePicker';
import { Runs } from './Runs';

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
  const profiles = useItem(cachedProfiles)?.data;
  const saved = useItem(savedScripts);
  const examples = useExamples();
  const { draft, update, bind } = useDraft('script', { profileId: '', name: '', text: '' });
  const task = useTask();
  const [nameMissing, setNameMissing] = useState(false);
  // Looking at the runs counts as having seen the ended ones: the toolbar badge's mark goes.
  useEffect(() => void connector.send({ type: 'runs.seen' }), []);
  const checked = draft.text.trim() ? checkScript(draft.text) : { script: null, problems: [] };
  const problems = checked.notJson
    ? [{ step: null, message: t('scriptNotJson', checked.notJson) }]
    : checked.problems.length
      ? checked.problems
      : (task.error?.fieldErrors.map(toScriptProblem) ?? []);
  const profileId = draft.profileId || profiles?.[0]?.id || '';
  const name = draft.name.trim();

  function load(event: Event) {
    // `example:<message key>` or `saved:<name>` (a name may hold colons).
    const [, kind, key = ''] = /^(\w+):(.*)$/s.exec((event.currentTarget as HTMLSelectElement).value) ?? [];
    const script = kind === 'example' ? examples[key] : saved?.[key];
    if (script) update({ text: pretty(script), name: kind === 'example' ? t(key as MessageName) : key });
  }

  function save() {
    setNameMissing(!name);
    if (name && checked.script) connector.send({ type: 'savedScript.set', name, script: checked.script });
  }

  function run(event: Event) {
    event.preventDefault();
    const script = checked.script;
    if (!script || !profileId) return;
    task.run(() =>
      connector.send({
        type: 'run.start',
        run: { profile_id: profileId, script, ...(name ? { name } : {}) },
      }),
    );
  }

  return (
    <section class="stack">
      <h2>{t('recentRuns')}</h2>
      <Runs focus={focus} />
      <form class="stack" onSubmit={run} noValidate>
        <ProfilePicker value={profileId} onPick={(id) => update({ profileId: id })} />
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
        <Problem error={task.error} />
        <button type="submit" class="primary" disabled={task.busy || !checked.script || !profileId}>
          {task.busy ? t('starting') : t('run')}
        </button>
      </form>
    </section>
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
