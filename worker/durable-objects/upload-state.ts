// One object per upload: serialises the tus offset and the R2 multipart state.
// Implemented with the uploads work; declared now so the binding exists.
import { DurableObject } from "cloudflare:workers";

export class UploadState extends DurableObject {}
