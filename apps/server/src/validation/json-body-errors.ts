import { invalidRequest, type RelayError } from '@chat-relay/wire';
import { describeJsonPath, MAX_JSON_DEPTH } from './json-depth';

/** JSON that does not parse, in the words every JSON route answers with. */
export const unparsable = () =>
  invalidRequest(
    'We could not parse the JSON body of your request. Send valid JSON with Content-Type: application/json.',
    null,
    'invalid_json',
  );

/** A large body nested too deep, told by where in its bytes (its path would need a parse). */
export function nestingTooDeepAt(at: number): RelayError {
  return invalidRequest(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep (at byte ${at}); flatten it.`, null, 'nesting_too_deep');
}

/** Deep nesting crashes the recursive code after the parse (issue 10, defect 2). */
export function nestingTooDeep(path: ReadonlyArray<string | number>): RelayError {
  const where = describeJsonPath(path);
  return invalidRequest(
    `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep at ${where}; flatten it.`,
    where,
    'nesting_too_deep',
  );
}

