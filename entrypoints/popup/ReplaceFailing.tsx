import { pastedLines } from '../../components/bulk-rules';
import { Fold } from '../../components/Fold';
import { LinePreview } from '../../components/LinePreview';
import { PasteBox } from '../../components/PasteBox';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

/**
 * The failing proxies shown, replaced on every profile that uses them: a pasted line for each, in the order shown,
 * previewed beside the proxy it replaces.
 */
export function ReplaceFailing({ failing, onDone }: { failing: ProxyConfig[]; onDone: () => void }) {
  return (
    <Fold title={t('replaceFailing')}>
      <PasteBox
        label={t('replaceFailingLabel')}
        action={t('replaceFailing')}
        preview={(text) => <LinePreview names={failing.map(({ name }) => name)} lines={pastedLines(text)} />}
        send={async (text) => {
          const replacements = pastedLines(text)
            .slice(0, failing.length)
            .map((line, index) => ({ from: (failing[index] as ProxyConfig).id, line: line.trim() }));
          const reply = await connector.send({ type: 'proxies.replace', replacements });
          if (reply.ok) onDone();
          return reply;
        }}
        outcomeOf={({ replaced, profiles }) => t('replacedOutcome', replaced.length, profiles)}
      />
    </Fold>
  );
}
