package rtvi

import (
	"encoding/json"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The tags that stand in for stripped media.
const (
	tagAudio  = "<audio>"
	tagImage  = "<image>"
	tagFile   = "<file>"
	tagBinary = "<binary>"
)

// sanitizeContext returns a copy of a conversation context (typically the
// list of messages a bot keeps) with media blobs replaced by short tags,
// so that the context fits in one reply frame. The input is never
// modified: every map, list and orderedObject on the way is rebuilt, and byte
// slices are replaced, not cleared.
//
// A key is a media key when its lower-cased form (as Python's str.lower
// gives it) contains "audio", "image" or "file" (input_audio, image_url,
// filename, profile, ...). The tag for a media key is "<audio>",
// "<image>" or "<file>", tested in that order; with no media key it is
// "<binary>". Going down the tree, the nearest enclosing media key is
// remembered, and
//
//   - a []byte becomes the tag for that key;
//   - a string beginning with "data:" (a data URI; the prefix is matched
//     exactly, in lower case) becomes the tag for that key, wherever it is;
//     other strings are kept;
//   - the value of a key "file_data" or "b64_json" (any case), and of a
//     key "data" (any case) inside a media key, is replaced whole, even
//     when it is an object or a list, by the tag for the nearest media key
//     including the member's own key;
//   - objects and lists are copied with their members sanitised; an
//     orderedObject keeps its order and a map[string]any stays a map;
//   - numbers, booleans and nil are kept.
//
// Values of other Go types (structs, pointers, named map and slice types,
// json.RawMessage) are first turned into a JSON tree through
// encoding/json, so the result holds orderedObjects where they had fields; a
// value that encoding/json cannot marshal is returned as it is. Note that
// a []byte field of a struct is marshalled as a base64 string, which is
// then kept unless its key is one whose value is replaced whole.
//
// Containers nested deeper than 10,000 levels (which includes cyclic
// values) are cut off: the deeper container is replaced by nil.
// sanitizeContext never panics.
func sanitizeContext(v any) any {
	return sanitizeValue(v, "", 0)
}

// sanitizeValue sanitises v. media is the lower-cased nearest enclosing
// media key, or "" for none; depth counts the containers enclosing v.
func sanitizeValue(v any, media string, depth int) any {
	switch x := v.(type) {
	case nil, bool, float64, json.Number,
		int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64:
		return x
	case string:
		if strings.HasPrefix(x, "data:") {
			return mediaTag(media)
		}
		return x
	case []byte:
		return mediaTag(media)
	case pyvalue.Dict:
		return sanitizeValue(fromDict(x), media, depth)
	case orderedObject:
		if x == nil {
			return orderedObject(nil)
		}
		if depth >= treeMaxDepth {
			return nil
		}
		out := make(orderedObject, len(x))
		for i, m := range x {
			out[i] = objMember{Key: m.Key, Value: sanitizeMember(m.Key, m.Value, media, depth)}
		}
		return out
	case map[string]any:
		if x == nil {
			return map[string]any(nil)
		}
		if depth >= treeMaxDepth {
			return nil
		}
		return sanitizeMap(x, media, depth)
	case []any:
		if x == nil {
			return []any(nil)
		}
		if depth >= treeMaxDepth {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanitizeValue(e, media, depth+1)
		}
		return out
	case []map[string]any:
		if x == nil {
			return []map[string]any(nil)
		}
		if depth >= treeMaxDepth {
			return nil
		}
		out := make([]map[string]any, len(x))
		for i, m := range x {
			out[i] = sanitizeMap(m, media, depth+1)
		}
		return out
	}
	tree, err := toTree(v)
	if err != nil || !isTreeValue(tree) {
		return v
	}
	return sanitizeValue(tree, media, depth)
}

// sanitizeMap sanitises a map into a new map. A nil map, or one past the
// depth limit, gives a nil map.
func sanitizeMap(m map[string]any, media string, depth int) map[string]any {
	if m == nil || depth >= treeMaxDepth {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = sanitizeMember(k, v, media, depth)
	}
	return out
}

// sanitizeMember sanitises the value of member key of an object that
// inherits the media key media and is enclosed by depth containers.
func sanitizeMember(key string, v any, media string, depth int) any {
	lk := pyvalue.Lower(key) // Python's str.lower: "FİLE" is "fi̇le", not a media key
	child := media
	if isMediaKey(lk) {
		child = lk
	}
	if lk == "file_data" || lk == "b64_json" || lk == "data" && media != "" {
		return mediaTag(child)
	}
	return sanitizeValue(v, child, depth+1)
}

// isMediaKey reports whether the lower-cased key lk names media.
func isMediaKey(lk string) bool {
	return strings.Contains(lk, "audio") || strings.Contains(lk, "image") || strings.Contains(lk, "file")
}

// mediaTag returns the tag for the lower-cased media key lk ("" for none).
func mediaTag(lk string) string {
	switch {
	case strings.Contains(lk, "audio"):
		return tagAudio
	case strings.Contains(lk, "image"):
		return tagImage
	case strings.Contains(lk, "file"):
		return tagFile
	}
	return tagBinary
}
