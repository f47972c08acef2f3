/**
 * Iterations per page of the loop page's timeline. In a module of its own so
 * the server page can prefetch the first page under the same query key.
 */
export const ITERATION_PAGE = 20;
