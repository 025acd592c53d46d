/**
 * A pure function's answers kept by key: the model asks the same few questions (an id's target
 * forms, its public handle, its bounded pattern) in every case. Bounded: emptied when full, so a
 * long run's memory stays flat.
 */
export function kept<K, T>(answers: Map<K, T>, key: K, make: (key: K) => T, most = 4096): T {
  let answer = answers.get(key);
  if (answer === undefined) {
    if (answers.size >= most) answers.clear();
    answers.set(key, (answer = make(key)));
  }
  return answer;
}
