/**
 * In-process pocketsphinx 5prealpha (Debian libpocketsphinx3 / libsphinxbase3) through koffi.
 * Used only inside the speech-to-text worker: decoding is a blocking native call.
 */
import * as koffi from 'koffi';
import path from 'node:path';
import { BadMediaError, EngineUnavailableError } from './errors.js';
import { requireFile } from './system.js';

export interface DecodedWord {
  word: string;
  /** First and last 10 ms frame of the word among the frames the VAD kept (not audio time). */
  startFrame: number;
  endFrame: number;
}

export interface Decoded {
  hypothesis: string;
  words: DecodedWord[];
}

export interface PocketsphinxOptions {
  /** Folder holding en-us/, en-us.lm.bin, cmudict-en-us.dict. */
  modelDir: string;
  /** Extra decoder arguments, e.g. ['-beam', '1e-60']. */
  extraArgs?: string[];
}

type Ptr = unknown;

interface Api {
  cmdLnParseR: (inout: Ptr, defn: Ptr, argc: number, argv: string[], strict: number) => Ptr;
  psArgs: () => Ptr;
  psInit: (config: Ptr) => Ptr;
  psFree: (ps: Ptr) => number;
  cmdLnFreeR: (config: Ptr) => number;
  psStartStream: (ps: Ptr) => number;
  psStartUtt: (ps: Ptr) => number;
  psProcessRaw: (ps: Ptr, data: Int16Array, n: number, noSearch: number, fullUtt: number) => number;
  psEndUtt: (ps: Ptr) => number;
  psGetHyp: (ps: Ptr, score: number[]) => string | null;
  psSegIter: (ps: Ptr) => Ptr;
  psSegNext: (seg: Ptr) => Ptr;
  psSegWord: (seg: Ptr) => string | null;
  psSegFrames: (seg: Ptr, sf: number[], ef: number[]) => void;
  psGetLogmath: (ps: Ptr) => Ptr;
  psGetSearch: (ps: Ptr) => string | null;
  psSetSearch: (ps: Ptr, name: string) => number;
  psSetLm: (ps: Ptr, name: string, lm: Ptr) => number;
  ngramRead: (config: Ptr, file: string, type: number, lmath: Ptr) => Ptr;
  ngramRetain: (model: Ptr) => Ptr;
  ngramSetInit: (config: Ptr, models: Ptr[], names: string[], weights: Float32Array, n: number) => Ptr;
}

const FEATURE = 'Speech-to-text';

/**
 * Decoder settings used unless `extraArgs` sets them. `-maxhmmpf` caps the HMMs searched per
 * 10 ms frame (pocketsphinx's default, 30 000, is effectively no cap): 4 000 halves the decoding
 * time of noisy or short recordings with the same transcripts on the benchmark corpus (flite,
 * librivox and cards sets; 2 000 starts losing words) — see docs/BENCHMARKS.md.
 */
export const DEFAULT_DECODER_ARGS: Readonly<Record<string, string>> = { '-maxhmmpf': '4000' };

function loadLibrary(soname: string, debianPackage: string): koffi.LibraryHandle {
  try {
    return koffi.load(soname);
  } catch (error) {
    throw new EngineUnavailableError(
      `${FEATURE} needs the Debian package ${debianPackage} (${soname} could not be loaded: ${(error as Error).message}): apt-get install ${debianPackage}`,
    );
  }
}

function bind(): Api {
  const base = loadLibrary('libsphinxbase.so.3', 'libsphinxbase3');
  const ps = loadLibrary('libpocketsphinx.so.3', 'libpocketsphinx3');
  // koffi returns untyped functions; each is given its C signature here and a TS type in Api.
  const f = <T>(lib: koffi.LibraryHandle, decl: string): T => lib.func(decl) as unknown as T;
  return {
    cmdLnParseR: f(base, 'void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)'),
    cmdLnFreeR: f(base, 'int cmd_ln_free_r(void *config)'),
    psArgs: f(ps, 'void *ps_args(void)'),
    psInit: f(ps, 'void *ps_init(void *config)'),
    psFree: f(ps, 'int ps_free(void *ps)'),
    psStartStream: f(ps, 'int ps_start_stream(void *ps)'),
    psStartUtt: f(ps, 'int ps_start_utt(void *ps)'),
    psProcessRaw: f(ps, 'int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    psEndUtt: f(ps, 'int ps_end_utt(void *ps)'),
    psGetHyp: f(ps, 'const char *ps_get_hyp(void *ps, _Out_ int *score)'),
    psSegIter: f(ps, 'void *ps_seg_iter(void *ps)'),
    psSegNext: f(ps, 'void *ps_seg_next(void *seg)'),
    psSegWord: f(ps, 'const char *ps_seg_word(void *seg)'),
    psSegFrames: f(ps, 'void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    psGetLogmath: f(ps, 'void *ps_get_logmath(void *ps)'),
    psGetSearch: f(ps, 'const char *ps_get_search(void *ps)'),
    psSetSearch: f(ps, 'int ps_set_search(void *ps, const char *name)'),
    psSetLm: f(ps, 'int ps_set_lm(void *ps, const char *name, void *lm)'),
    ngramRead: f(base, 'void *ngram_model_read(void *config, const char *file, int type, void *lmath)'),
    ngramRetain: f(base, 'void *ngram_model_retain(void *model)'),
    ngramSetInit: f(
      base,
      'void *ngram_model_set_init(void *config, void **models, const char **names, const float *weights, int n)',
    ),
  };
}

/** Words that are not speech: sentence markers, silence, noise fillers. */
export function isFiller(word: string): boolean {
  return word === '<s>' || word === '</s>' || word === '<sil>' || /^\[.*\]$/.test(word) || /^\+\+.*\+\+$/.test(word);
}

/** Weight of the workspace model when interpolated with the generic one (see docs/BENCHMARKS.md). */
export const DEFAULT_ADAPTATION_WEIGHT = 0.5;

export class PocketsphinxDecoder {
  private readonly api: Api;
  private readonly config: Ptr;
  private readonly decoder: Ptr;
  private readonly lmPath: string;
  private readonly defaultSearch: string;
  private generic: Ptr = null;
  /** Key (path and weight) of the adapted model loaded in the "adapted" search, if any. */
  private adaptedKey: string | null = null;
  /** Whether the "adapted" search is the active one. */
  private adaptedActive = false;

  constructor(options: PocketsphinxOptions) {
    const dir = options.modelDir;
    const hmm = path.join(dir, 'en-us');
    const lm = path.join(dir, 'en-us.lm.bin');
    const dict = path.join(dir, 'cmudict-en-us.dict');
    for (const file of [path.join(hmm, 'mdef'), path.join(hmm, 'means'), lm, dict]) {
      requireFile(file, 'pocketsphinx-en-us', FEATURE);
    }
    this.api = bind();
    const extra = options.extraArgs ?? [];
    const defaults = Object.entries(DEFAULT_DECODER_ARGS)
      .filter(([name]) => !extra.includes(name))
      .flat();
    const argv = ['-hmm', hmm, '-lm', lm, '-dict', dict, '-logfn', '/dev/null', ...defaults, ...extra];
    this.config = this.api.cmdLnParseR(null, this.api.psArgs(), argv.length, argv, 1);
    if (!this.config) throw new EngineUnavailableError(`${FEATURE}: pocketsphinx rejected its arguments`);
    this.decoder = this.api.psInit(this.config);
    if (!this.decoder) {
      throw new EngineUnavailableError(`${FEATURE}: pocketsphinx could not load its model from ${dir}`);
    }
    this.lmPath = lm;
    this.defaultSearch = this.api.psGetSearch(this.decoder) ?? '_default';
  }

  /**
   * Decodes with the generic model interpolated with the ARPA model at `arpaPath` (weight `weight`
   * for it, 1 - weight for the generic one), or with the generic model alone when `arpaPath` is null.
   * The last adapted model stays loaded, so a workspace's consecutive recordings reuse it.
   * Words of the ARPA model missing from the pronunciation dictionary are ignored by pocketsphinx.
   */
  useAdaptedModel(arpaPath: string | null, weight = DEFAULT_ADAPTATION_WEIGHT): void {
    const api = this.api;
    if (arpaPath === null) {
      if (this.adaptedActive && api.psSetSearch(this.decoder, this.defaultSearch) < 0) {
        throw new Error('ps_set_search failed');
      }
      this.adaptedActive = false;
      return;
    }
    const key = `${weight}:${arpaPath}`;
    if (this.adaptedKey !== key) {
      const lmath = api.psGetLogmath(this.decoder);
      // The generic model is read once more (the loaded search owns its copy) and kept for every set.
      this.generic ??= api.ngramRead(this.config, this.lmPath, 0, lmath);
      if (!this.generic) throw new Error(`${FEATURE}: could not read ${this.lmPath}`);
      const adapted = api.ngramRead(this.config, arpaPath, 1, lmath);
      if (!adapted) throw new BadMediaError(`${FEATURE}: the adapted language model could not be read`);
      const set = api.ngramSetInit(
        this.config,
        [api.ngramRetain(this.generic), adapted],
        ['generic', 'workspace'],
        new Float32Array([1 - weight, weight]),
        2,
      );
      if (!set || api.psSetLm(this.decoder, 'adapted', set) < 0) throw new Error('ps_set_lm failed');
      this.adaptedKey = key;
    }
    if (api.psSetSearch(this.decoder, 'adapted') < 0) throw new Error('ps_set_search failed');
    this.adaptedActive = true;
  }

  /**
   * Decodes one utterance of 16 kHz mono signed 16-bit samples.
   * - ps_start_stream first: it resets the noise estimate and the frame counter, so a request is
   *   not influenced by the previous ones (without it results depend on request order);
   * - the whole utterance is passed at once with full_utt=1, so cepstral mean normalisation is
   *   computed over the whole recording (chunks switch to live CMN, which also carries state).
   * Word frames count only frames the voice-activity detector kept (silence is dropped), so they
   * are not audio time.
   */
  decode(samples: Int16Array): Decoded {
    const api = this.api;
    if (api.psStartStream(this.decoder) < 0) throw new Error('ps_start_stream failed');
    if (api.psStartUtt(this.decoder) < 0) throw new Error('ps_start_utt failed');
    if (samples.length > 0 && api.psProcessRaw(this.decoder, samples, samples.length, 0, 1) < 0) {
      api.psEndUtt(this.decoder);
      throw new Error('ps_process_raw failed');
    }
    if (api.psEndUtt(this.decoder) < 0) throw new Error('ps_end_utt failed');
    const score = [0];
    const hypothesis = (api.psGetHyp(this.decoder, score) ?? '').trim();
    const segments: DecodedWord[] = [];
    // ps_seg_next frees the iterator when it returns NULL.
    for (let seg = api.psSegIter(this.decoder); seg; seg = api.psSegNext(seg)) {
      const sf = [0];
      const ef = [0];
      api.psSegFrames(seg, sf, ef);
      segments.push({ word: api.psSegWord(seg) ?? '', startFrame: sf[0] ?? 0, endFrame: ef[0] ?? 0 });
    }
    const origin = segments.length > 0 ? Math.min(...segments.map((s) => s.startFrame)) : 0;
    const words = segments
      .filter((s) => !isFiller(s.word))
      .map((s) => ({
        word: s.word.replace(/\(\d+\)$/, ''),
        startFrame: s.startFrame - origin,
        endFrame: s.endFrame - origin,
      }));
    return { hypothesis, words };
  }

  free(): void {
    this.api.psFree(this.decoder);
    this.api.cmdLnFreeR(this.config);
  }
}
