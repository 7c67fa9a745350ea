// Pure: which entry of a request mix goes next. Smooth weighted round-robin (nginx's): every pick adds
// each entry's weight to its credit and takes the entry with the most, which then pays the total.
// The shares are exact over every cycle of the weights, spread evenly within it, and the same in every
// run (no random draws to add noise between trials).
export class MixPicker {
  private readonly credit: number[];
  private readonly total: number;

  constructor(private readonly weights: readonly number[]) {
    this.credit = weights.map(() => 0);
    this.total = weights.reduce((a, w) => a + w, 0);
    if (!(this.total > 0)) throw new Error('a request mix needs weights that sum to a positive number');
  }

  next(): number {
    let best = 0;
    for (let i = 0; i < this.weights.length; i++) {
      this.credit[i] = (this.credit[i] as number) + (this.weights[i] as number);
      if ((this.credit[i] as number) > (this.credit[best] as number)) best = i;
    }
    this.credit[best] = (this.credit[best] as number) - this.total;
    return best;
  }
}
