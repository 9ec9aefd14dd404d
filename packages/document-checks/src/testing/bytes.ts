export const half = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2));

export const contains = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text, 'latin1'));
