// Short builders of IPP attributes by syntax, so attribute tables read as name → values.
import { TAG, type IppAttribute, type IppEncodable, type IppResolution } from '../ipp/ipp-wire';

const make = (tag: number) => (name: string, ...values: IppEncodable[]): IppAttribute => ({ tag, name, values });

/** keyword */
export const keyword = make(TAG.keyword);
/** integer */
export const integer = make(TAG.integer);
/** enum */
export const enumeration = make(TAG.enum);
/** boolean */
export const boolean = make(TAG.boolean);
/** text (without language) */
export const text = make(TAG.text);
/** name (without language) */
export const nameValue = make(TAG.name);
/** uri */
export const uri = make(TAG.uri);
/** uriScheme */
export const uriScheme = make(TAG.uriScheme);
/** charset */
export const charset = make(TAG.charset);
/** naturalLanguage */
export const language = make(TAG.naturalLanguage);
/** mimeMediaType */
export const mimeType = make(TAG.mimeMediaType);
/** rangeOfInteger */
export const range = make(TAG.rangeOfInteger);
/** dateTime */
export const dateTime = make(TAG.dateTime);
/** octetString */
export const octets = make(TAG.octetString);
/** collection: each value is a list of member attributes */
export const collection = (name: string, ...values: IppAttribute[][]): IppAttribute => ({ tag: TAG.begCollection, name, values });
/** resolution */
export const resolution = (name: string, ...values: IppResolution[]): IppAttribute => ({ tag: TAG.resolution, name, values });
/** An out-of-band value: no-value or unknown. */
export const outOfBand = (name: string, tag: typeof TAG.noValue | typeof TAG.unknown): IppAttribute => ({ tag, name, values: [''] });
