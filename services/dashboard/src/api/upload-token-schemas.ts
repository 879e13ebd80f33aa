import { z } from 'zod';
import { nameText } from '@devtrail/http';

// Request schemas of upload-token-routes.ts.
export const uploadTokenBody = z.object({ name: nameText(100) }).strict();
export const uploadTokenParam = z.object({ tokenId: z.string().uuid() });
