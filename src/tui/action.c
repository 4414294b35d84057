/* The actions' list as tables, and the keymap that the default keys and a
 * user's bindings fill through one parser. */
#include "tui/action.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

const tui_action_info tui_actions[TUI_ACTION_COUNT] = {
	[TUI_ACTION_NONE] = { .name = "", .view = "", .keys = "", .help = "" },
#define TUI_ACTION_ROW(id, name_, view_, keys_, help_) \
	[TUI_ACTION_##id] = { .name = name_, .view = view_, .keys = keys_, .help = help_ },
	TUI_ACTION_INFO(TUI_ACTION_ROW)
#undef TUI_ACTION_ROW
};

static const struct {
	const char *name;
	int key;
} named[] = {
	{ .name = "Enter", .key = TUI_KEY_ENTER },
	{ .name = "Tab", .key = '\t' },
	{ .name = "Down", .key = KEY_DOWN },
	{ .name = "Up", .key = KEY_UP },
	{ .name = "PgDn", .key = KEY_NPAGE },
	{ .name = "PgUp", .key = KEY_PPAGE },
	{ .name = "Space", .key = ' ' },
	{ .name = "Escape", .key = TUI_KEY_ESCAPE },
	{ .name = "Backspace", .key = TUI_KEY_BACKSPACE },
};

int tui_key_normal(int key)
{
	if (key == '\r' || key == KEY_ENTER)
		return TUI_KEY_ENTER;
	if (key == KEY_BACKSPACE || key == 8)
		return TUI_KEY_BACKSPACE;
	return key;
}

int tui_key_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strcmp(name, named[i].name) == 0)
			return named[i].key;
	if (strlen(name) == 1 && name[0] > ' ' && name[0] < 127)
		return name[0];
	return -1;
}

const char *tui_key_name(int key, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == key)
			return named[i].name;
	if (key <= ' ' || key >= 127 || size < 2)
		return NULL;
	buf[0] = (char)key;
	buf[1] = '\0';
	return buf;
}

static int add(tui_keymap *map, int key, tui_action action, const char *view, bool user)
{
	tui_binding *items = realloc(map->items, (map->count + 1) * sizeof(*items));

	if (!items)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	map->items = items;
	map->items[map->count++] = (tui_binding){ .key = key, .action = action, .view = view, .user = user };
	return 0;
}

/* The action named name and the key named key; UTIL_EINPUT for either unknown. */
static int parse(const char *name, const char *key, tui_action *action, int *k)
{
	size_t i;

	for (i = 1; i < TUI_ACTION_COUNT; i++)
		if (strcmp(tui_actions[i].name, name) == 0)
			break;
	if (i == TUI_ACTION_COUNT)
		return util_error_set(UTIL_EINPUT, "keys.%s: no such action", name);
	if ((*k = tui_key_parse(key)) < 0)
		return util_error_set(UTIL_EINPUT, "keys.%s: '%s' is not a key", name, key);
	*action = (tui_action)i;
	return 0;
}

int tui_keymap_bind(tui_keymap *map, const char *action, const char *key)
{
	tui_action a;
	int k, error;

	if ((error = parse(action, key, &a, &k)) < 0)
		return error;
	return add(map, k, a, NULL, true);
}

int tui_keymap_init(tui_keymap *map)
{
	size_t i;
	int error;

	memset(map, 0, sizeof(*map));
	for (i = 1; i < TUI_ACTION_COUNT; i++) {
		char keys[64], *save, *word;
		const char *view = tui_actions[i].view[0] ? tui_actions[i].view : NULL;

		/* the default keys go through the parser of a user's bindings */
		snprintf(keys, sizeof(keys), "%s", tui_actions[i].keys);
		for (word = strtok_r(keys, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
			tui_action a;
			int k;

			if ((error = parse(tui_actions[i].name, word, &a, &k)) < 0 || (error = add(map, k, a, view, false)) < 0)
				return error;
		}
	}
	return 0;
}

void tui_keymap_dispose(tui_keymap *map)
{
	free(map->items);
	memset(map, 0, sizeof(*map));
}

/* The latest binding of key: a user's or a default, of the view or of all. */
static const tui_binding *find(const tui_keymap *map, int key, bool user, const char *view)
{
	size_t i;

	for (i = map->count; i > 0; i--) {
		const tui_binding *b = &map->items[i - 1];

		if (b->key == key && b->user == user &&
		    (user ? !b->view || (view && strcmp(b->view, view) == 0)
			  : view ? b->view && strcmp(b->view, view) == 0 : !b->view))
			return b;
	}
	return NULL;
}

tui_action tui_keymap_action(const tui_keymap *map, const char *view, int key)
{
	const tui_binding *b = find(map, key, true, view);

	if (!b && view)
		b = find(map, key, false, view);
	if (!b)
		b = find(map, key, false, NULL);
	return b ? b->action : TUI_ACTION_NONE;
}
