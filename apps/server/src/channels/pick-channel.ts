export interface Weighted {
  id: number;
  priority: number;
  weight: number;
}

/**
 * Routing choice (SPEC §6): among candidates not yet tried and available, the highest
 * priority tier wins, and inside it one is drawn at random in proportion to its weight —
 * unless `preferred` (the channel a session's prompt cache is on) is in that tier with a
 * weight above zero: then it is the one (issue 29).
 */
export function pickChannel<T extends Weighted>(
  candidates: readonly T[],
  tried: ReadonlySet<number>,
  isAvailable: (id: number) => boolean,
  random: () => number = Math.random,
  preferred?: number,
): T | undefined {
  let tier: T[] = [];
  let tierPriority = -Infinity;
  let sticky: T | undefined;
  for (const candidate of candidates) {
    if (tried.has(candidate.id) || !isAvailable(candidate.id)) continue;
    if (candidate.id === preferred && candidate.weight > 0) sticky = candidate;
    if (candidate.priority > tierPriority) {
      tier = [candidate];
      tierPriority = candidate.priority;
    } else if (candidate.priority === tierPriority) {
      tier.push(candidate);
    }
  }
  if (sticky?.priority === tierPriority) return sticky;
  if (tier.length <= 1) return tier[0];
  const totalWeight = tier.reduce((sum, candidate) => sum + candidate.weight, 0);
  let draw = random() * totalWeight;
  for (const candidate of tier) {
    draw -= candidate.weight;
    if (draw < 0) return candidate;
  }
  return tier[tier.length - 1];
}
