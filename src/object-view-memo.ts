/**
 * Values made from objects that are never changed in place (a history record, a chart input), by a view of them:
 * the same object and view give the value made before, so a repeated request does the work once. Held weakly, so the
 * values go with their object; past `viewsPerObject` views of one object, the oldest is dropped and made again when
 * asked.
 */
export class ObjectViewMemo<K extends object, V> {
	readonly #byObject = new WeakMap<K, Map<string, V>>();

	constructor(private readonly viewsPerObject: number) {}

	get(object: K, view: string, make: () => V): V {
		let byView = this.#byObject.get(object);
		if (!byView) this.#byObject.set(object, (byView = new Map()));
		let value = byView.get(view);
		if (value === undefined) {
			value = make();
			byView.set(view, value);
			if (byView.size > this.viewsPerObject) byView.delete(byView.keys().next().value as string);
		}
		return value;
	}
}
