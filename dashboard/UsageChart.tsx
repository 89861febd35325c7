const WIDTH = 600;
const HEIGHT = 120;

/**
 * Requests per minute over the last hour as 60 bars, drawn as SVG by hand (a chart library would weigh more
 * than the rest of the pages). The scale starts at 0 and ends at the busiest minute.
 */
export function UsageChart({ perMinute }: { perMinute: number[] }) {
  const busiest = Math.max(1, ...perMinute);
  const slot = WIDTH / perMinute.length;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 16}`}
        role="img"
        aria-label={`Requests per minute over the last 60 minutes; the busiest minute had ${busiest}.`}
      >
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} class="axis" />
        {perMinute.map((count, minute) => {
          const height = (count / busiest) * (HEIGHT - 4);
          const ago = perMinute.length - minute - 1;
          return (
            <rect
              key={minute}
              x={minute * slot + 1}
              y={HEIGHT - height}
              width={slot - 2}
              height={height}
              class="bar-count"
            >
              <title>{`${count} request${count === 1 ? '' : 's'} ${ago === 0 ? 'this minute' : `${ago} min ago`}`}</title>
            </rect>
          );
        })}
        <text x={0} y={HEIGHT + 14} class="tick">
          60 min ago
        </text>
        <text x={WIDTH} y={HEIGHT + 14} class="tick end">
          now
        </text>
      </svg>
      <figcaption class="muted">Requests per minute, last 60 minutes (busiest: {busiest}).</figcaption>
    </figure>
  );
}
