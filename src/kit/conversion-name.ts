/** A conversion's (or event's) name as the collector accepts it: 1-64 letters, digits or `_ . : -`. */
export const CONVERSION_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A name to count: a conversion name in which `*` matches any run of characters. */
export const CONVERSION_NAME_PATTERN = /^[A-Za-z0-9_.:*-]{1,64}$/;
