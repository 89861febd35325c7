import { execFile } from 'node:child_process';

/** How Chrome names the platform in its user agent (the reduced form every Chrome since 110 sends). */
const PLATFORMS: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'X11; Linux x86_64',
  darwin: 'Macintosh; Intel Mac OS X 10_15_7',
  win32: 'Windows NT 10.0; Win64; x64',
};

const majorVersions = new Map<string, Promise<string | null>>();

/** The major version of the Chrome or Chromium at `chromePath`, from its `--version`; asked once per path. */
export function chromeMajorVersion(chromePath: string): Promise<string | null> {
  let version = majorVersions.get(chromePath);
  if (!version) {
    version = new Promise((resolve) =>
      execFile(chromePath, ['--version'], { timeout: 10_000 }, (error, stdout) =>
        resolve(error ? null : (/\b(\d+)\.\d+\.\d+\.\d+\b/.exec(stdout)?.[1] ?? null)),
      ),
    );
    majorVersions.set(chromePath, version);
  }
  return version;
}

/**
 * The user agent Chrome of this major version sends with a window on this platform. A headless Chromium says
 * `HeadlessChrome/<version>` instead, in JavaScript and on the wire, which tells every site it is automated.
 */
export function desktopUserAgent(major: string, platform: NodeJS.Platform = process.platform): string {
  const system = PLATFORMS[platform] ?? PLATFORMS.linux;
  return `Mozilla/5.0 (${system}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** The user agent a headless session presents when its fingerprint names none; null if the version is unknown. */
export async function headlessUserAgent(chromePath: string): Promise<string | null> {
  const major = await chromeMajorVersion(chromePath);
  return major ? desktopUserAgent(major) : null;
}
