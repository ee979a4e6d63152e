/** OpenAI's error envelope: `{ error: { message, type, param, code } }`. */
export interface OpenAIError {
  status: number;
  headers?: Record<string, string>;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
}

function openAIError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): OpenAIError {
  return { status, body: { error: { message, type, param, code } } };
}

export function invalidApiKey(provided: string | undefined): OpenAIError {
  const message = provided
    ? `Incorrect API key provided: ${mask(provided)}. You can find your API key at https://platform.openai.com/account/api-keys.`
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
  return openAIError(401, message, 'invalid_request_error', 'invalid_api_key');
}

export function rateLimited(): OpenAIError {
  const error = openAIError(
    429,
    'Rate limit reached for requests. Please try again in 0s.',
    'requests',
    'rate_limit_exceeded',
  );
  error.headers = { 'retry-after': '0', 'retry-after-ms': '0' };
  return error;
}

export function serverError(): OpenAIError {
  return openAIError(
    500,
    'The server had an error while processing your request. Sorry about that!',
    'server_error',
    null,
  );
}

export function modelNotFound(model: string): OpenAIError {
  return openAIError(
    404,
    `The model \`${model}\` does not exist or you do not have access to it.`,
    'invalid_request_error',
    'model_not_found',
  );
}

export function invalidRequest(message: string, param: string | null = null): OpenAIError {
  return openAIError(400, message, 'invalid_request_error', null, param);
}

export function unparsableBody(): OpenAIError {
  return invalidRequest(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
  );
}

export function unknownRoute(method: string, path: string): OpenAIError {
  return openAIError(404, `Invalid URL (${method} ${path})`, 'invalid_request_error', null);
}

// The real API echoes only the key's first and last characters.
function mask(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}
