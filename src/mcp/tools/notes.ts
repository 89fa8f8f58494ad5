import { z } from 'zod';
import { createAudited, present, updateAudited, listTool } from './objects.ts';
import { idArg, longText, shortText, writeTool } from './types.ts';

type Note = { title: string; content: string };
const KIND = 'note';

export const noteTools = [
  listTool(
    'notes.get-notes',
    'Get notes',
    'Lists the notes saved in this workspace, oldest first, with id, title, content and timestamps.',
    KIND,
    'notes',
  ),
  writeTool(
    'notes.save-note',
    'Save a note',
    'Saves a new note (for example an observation about a campaign) and returns it with its id.',
    z
      .object({
        title: shortText('Title of the note'),
        content: longText('Body of the note, plain text or Markdown'),
      })
      .strict(),
    async (ctx, input) => {
      const note = await createAudited<Note>(ctx, 'notes.save-note', KIND, input);
      return { note: { id: String(note.id), title: note.data.title, content: note.data.content, created_at: note.createdAt } };
    },
  ),
  writeTool(
    'notes.update',
    'Update a note',
    'Changes the title and/or content of an existing note. Fields left out stay as they are.',
    z
      .object({
        id: idArg('note'),
        title: shortText('New title').optional(),
        content: longText('New body').optional(),
      })
      .strict(),
    async (ctx, { id, ...changes }) => ({ note: present(await updateAudited<Note>(ctx, 'notes.update', KIND, id, changes, 'Note')) }),
  ),
];
