// Pure: whether a threshold has a band (a leaf, so the family and the comparison can both read it).
import type { Threshold } from '../config-parts/types.js';

/** A threshold with a band (a relative or absolute change) is compared with a baseline by a test. */
export function hasBand(t: Threshold): boolean {
  return t.regress !== undefined || t.floor !== undefined;
}

/** A band a test judges: one given, and not shown as information (gate.bands: inform). */
export function judgedBand(t: Threshold | undefined): t is Threshold {
  return t !== undefined && hasBand(t) && !t.inform;
}
