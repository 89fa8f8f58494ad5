/** Kinds of the lists and notes tools and workflows write, and the bound of a list. */
export const LIST_KIND = 'list';
export const LIST_COLUMN_KIND = 'list_column';
export const LIST_ITEM_KIND = 'list_item';
export const MAX_ITEMS_PER_LIST = 5000;
export const NOTE_KIND = 'note';
