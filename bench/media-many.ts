// Many tiny media files at once (issue #16, "10 000 tiny files at once"): the product started as
// the README does (`npm start`), BENCH_FILES (10 000) small files uploaded into one library over
// tus (creation-with-upload: one POST each), BENCH_IN_FLIGHT (20) at a time, half of them PNGs
// (which get a thumbnail job each) and half text. Meanwhile a probe asks for /platform/info every
// 50 ms. Reports uploads/s, the probe's p50/p99/max, how long the preview jobs took to drain, and
// checks that every file is listed once, complete, with its preview made, and the server's RSS.
// Targets: every upload answered, the probe's p99 under 100 ms, nothing listed twice or half.
// Run: npx tsx bench/media-many.ts          (BENCH_PORT 3931, BENCH_FILES, BENCH_IN_FLIGHT,
//                                                BENCH_IMAGE_EVERY: every n-th file a PNG, 0 none; 2)
import { rmSync } from 'node:fs';
import { MEDIA_UPLOAD_PATH, type MediaItem, mediaRoutes } from '@athena/contract';
import sharp from 'sharp';
import { post, serverRssMb, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3931);
const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 20);
/** Every n-th file is a PNG (0: none, text only). */
const IMAGE_EVERY = Number(process.env.BENCH_IMAGE_EVERY ?? 2);
const base = `http://127.0.0.1:${PORT}`;

const metadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const dataDir = tempDataDir();
  const child = startProduct({ port: PORT, dataDir });
  try {
    await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 120_000);
    const token = await signIn(base);
    const space = (await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token })).space.id;
    const headers = { token, 'space-id': space };
    const library = (await post<{ id: string }>(`${base}${mediaRoutes.libraryCreate.path}`, { name: 'Many' }, headers))
      .id;
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#48f' } })
      .png()
      .toBuffer();

    // The probe: how long a plain request waits while the uploads and the preview jobs run.
    const waits: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' });
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const startRss = await serverRssMb(child.pid ?? 0);
    let peakRss = startRss;
    const rssTimer = setInterval(async () => {
      peakRss = Math.max(peakRss, await serverRssMb(child.pid ?? 0));
    }, 500);

    const started = performance.now();
    let next = 0;
    let failed = 0;
    const upload = async (index: number) => {
      const isImage = IMAGE_EVERY > 0 && index % IMAGE_EVERY === 0;
      const body = isImage ? png : Buffer.from(`note ${index}\n`);
      const res = await fetch(`${base}${MEDIA_UPLOAD_PATH}`, {
        method: 'POST',
        headers: {
          ...headers,
          'tus-resumable': '1.0.0',
          'upload-length': String(body.length),
          'upload-metadata': metadata({ library_id: library, filename: `f${index}.${isImage ? 'png' : 'txt'}` }),
          'content-type': 'application/offset+octet-stream',
        },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 201) failed += 1;
    };
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < FILES) await upload(next++);
      }),
    );
    const uploadSeconds = (performance.now() - started) / 1000;

    // The preview jobs run after the uploads were answered; wait until none is pending.
    const list = (page: number) =>
      post<{ items: MediaItem[]; total: number }>(
        `${base}${mediaRoutes.itemList.path}`,
        { library_id: library, page, page_size: 100, sort: 'name', order: 'asc' },
        headers,
      );
    const all = async () => {
      const items: MediaItem[] = [];
      for (let page = 1; ; page++) {
        const batch = await list(page);
        items.push(...batch.items);
        if (items.length >= batch.total || batch.items.length === 0) return items;
      }
    };
    await waitUntil(async () => (await all()).every((item) => item.preview !== 'pending'), 30 * 60_000);
    const drainSeconds = (performance.now() - started) / 1000;
    probing = false;
    await probe;
    clearInterval(rssTimer);

    const items = await all();
    const ids = new Set(items.map((item) => item.id));
    const names = new Set(items.map((item) => item.name));
    const images = items.filter((item) => item.kind === 'image');
    const sorted = [...waits].sort((a, b) => a - b);
    const report = {
      files: FILES,
      in_flight: IN_FLIGHT,
      refused: failed,
      uploads_per_second: Math.round(FILES / uploadSeconds),
      upload_seconds: Number(uploadSeconds.toFixed(1)),
      previews_drained_after_seconds: Number(drainSeconds.toFixed(1)),
      listed: items.length,
      duplicates: items.length - ids.size,
      distinct_names: names.size,
      not_ready: items.filter((item) => item.status !== 'ready').length,
      images_with_thumbnail: images.filter((item) => item.preview === 'ready' && item.thumbnail_url).length,
      images: images.length,
      text_documents: items.filter((item) => item.kind === 'document' && item.mime_type === 'text/plain').length,
      probe_ms: {
        n: sorted.length,
        p50: Number(percentile(sorted, 50).toFixed(1)),
        p99: Number(percentile(sorted, 99).toFixed(1)),
        max: Number((sorted.at(-1) ?? 0).toFixed(1)),
      },
      server_rss_mb: { before: startRss, peak: peakRss },
    };
    console.log(JSON.stringify(report, null, 2));
    const ok =
      failed === 0 &&
      items.length === FILES &&
      report.duplicates === 0 &&
      report.not_ready === 0 &&
      report.images_with_thumbnail === images.length &&
      report.probe_ms.p99 < 100;
    console.log(ok ? 'PASS' : 'FAIL');
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
