import { z } from 'zod';
import { NOTE_KIND } from '../../../store/app/lists-and-notes.ts';
import { createAudited, present, updateAudited, listTool } from '../kit/objects.ts';
import { idArg, longText, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

type Note = { title: string; content: string };
const KIND = NOTE_KIND;

export const noteTools = [
  listTool(
    'notes.get-notes',
    'Get notes',
    'The saved notes (title, content), oldest first.',
    'Notes saved with notes.save-note and by workflows; a key reads only those within its channels (docs/mcp.md, "Who may do what").',
    KIND,
    'notes',
  ),
  writeTool(
    'notes.save-note',
    'Save a note',
    'Saves a new note, for example an observation about a campaign.',
    'Stored in the workspace.',
    z
      .object({
        title: shortText('Title of the note'),
        content: longText('Plain text or Markdown'),
      })
      .strict(),
    z.strictObject({ note: out.stored }),
    async (ctx, input) => {
      const note = await createAudited<Note>(ctx, 'notes.save-note', KIND, input);
      return { note: { id: String(note.id), title: note.data.title, content: note.data.content, created_at: note.createdAt } };
    },
  ),
  writeTool(
    'notes.update',
    'Update a note',
    'Changes the title and/or content of a note.',
    'Stored in the workspace.',
    z
      .object({
        id: idArg('note'),
        title: shortText('New title').optional(),
        content: longText('New body').optional(),
      })
      .strict(),
    z.strictObject({ note: out.stored }),
    async (ctx, { id, ...changes }) => ({ note: present(await updateAudited<Note>(ctx, 'notes.update', KIND, id, changes, 'Note')) }),
  ),
];
