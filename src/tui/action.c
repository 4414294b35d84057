/* The actions' list as tables, and the keymap that the default keys and a
 * user's bindings fill through one parser. */
#include "tui/action.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

const tui_action_info tui_actions[TUI_ACTION_COUNT] = {
	[TUI_ACTION_NONE] = { .name = "", .keys = "", .help = "" },
#define TUI_ACTION_ROW(id, name_, keys_, help_) [TUI_ACTION_##id] = { .name = name_, .keys = keys_, .help = help_ },
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

static int add(tui_keymap *map, int key, tui_action action)
{
	tui_binding *items = realloc(map->items, (map->count + 1) * sizeof(*items));

	if (!items)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	map->items = items;
	map->items[map->count++] = (tui_binding){ .key = key, .action = action };
	return 0;
}

int tui_keymap_bind(tui_keymap *map, const char *action, const char *key)
{
	int k = tui_key_parse(key);
	size_t i;

	for (i = 1; i < TUI_ACTION_COUNT; i++)
		if (strcmp(tui_actions[i].name, action) == 0)
			break;
	if (i == TUI_ACTION_COUNT)
		return util_error_set(UTIL_EINPUT, "keys.%s: no such action", action);
	if (k < 0)
		return util_error_set(UTIL_EINPUT, "keys.%s: '%s' is not a key", action, key);
	return add(map, k, (tui_action)i);
}

int tui_keymap_init(tui_keymap *map)
{
	size_t i;
	int error;

	memset(map, 0, sizeof(*map));
	for (i = 1; i < TUI_ACTION_COUNT; i++) {
		char keys[64], *save, *word;

		snprintf(keys, sizeof(keys), "%s", tui_actions[i].keys);
		for (word = strtok_r(keys, " ", &save); word; word = strtok_r(NULL, " ", &save))
			if ((error = tui_keymap_bind(map, tui_actions[i].name, word)) < 0)
				return error;
	}
	return 0;
}

void tui_keymap_dispose(tui_keymap *map)
{
	free(map->items);
	memset(map, 0, sizeof(*map));
}

tui_action tui_keymap_action(const tui_keymap *map, int key)
{
	size_t i;

	for (i = map->count; i > 0; i--)
		if (map->items[i - 1].key == key)
			return map->items[i - 1].action;
	return TUI_ACTION_NONE;
}
