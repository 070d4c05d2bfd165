// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop top on a terminal: curses set-up, the wait for keys between
 * samples, and what each key does. Only A_BOLD and A_REVERSE are used, so
 * a vt100 or the Linux console on a serial line shows all of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>
#include "cli.h"
#include "clock.h"
#include "sig.h"
#include "snapshot.h"
#include "top.h"
#include "top_terminfo.h"
#include "units.h"

/* how long a message stays in the status line */
#define MSG_SECS 3.0
/* long enough to be read on a slow serial console */
#define TERMINFO_MSG_SECS 10.0
/* arrow keys arrive as escape sequences; a slow serial line needs time */
#define ESC_DELAY_MS 100
#define KEY_ESC 27
#define KEY_CTRL_L 12
#define KEY_DEL 127
#define KEY_CTRL_H 8
#define DELAY_INPUT_LEN 16

static attr_t curses_attr(unsigned int ta)
{
	attr_t a = A_NORMAL;

	if (ta & TA_BOLD)
		a |= A_BOLD;
	if (ta & TA_REVERSE)
		a |= A_REVERSE;
	return a;
}

static void screen_show(const struct top_frame *f)
{
	int i;

	erase();
	for (i = 0; i < f->nr && i < LINES; i++) {
		const struct top_line *l = &f->lines[i];

		attrset(curses_attr(l->attr));
		mvaddnstr(i, 0, l->text, COLS);
		/* a selected row is a bar across the screen, as in top */
		if (l->attr & TA_REVERSE)
			mvchgat(i, 0, -1, curses_attr(l->attr), 0, NULL);
		if (l->span_len)
			mvchgat(i, l->span_at, l->span_len,
				curses_attr(l->span_attr), 0, NULL);
	}
	attrset(A_NORMAL);
	refresh();
}

static int draw(struct top_state *s)
{
	int err;

	top_frame_reset(&s->frame, COLS, LINES);
	if (s->view.help)
		err = top_draw_help(&s->frame);
	else
		err = top_draw_main(&s->frame, &s->ctx, &s->view, s->shown);
	if (!err)
		screen_show(&s->frame);
	return err;
}

/* "Change delay from 1 to:" on the last line; sampling waits meanwhile */
static void prompt_delay(struct top_state *s)
{
	struct top_view *v = &s->view;
	char buf[DELAY_INPUT_LEN] = "";
	int n = 0, ch;
	double d;

	curs_set(1);
	timeout(-1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		attrset(A_BOLD);
		printw("Change delay from %.3g to: %s", v->delay, buf);
		attrset(A_NORMAL);
		refresh();
		ch = getch();
		if (sig_exiting || ch == KEY_ESC)
			break;
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if ((ch == KEY_BACKSPACE || ch == KEY_DEL ||
		     ch == KEY_CTRL_H) &&
		    n > 0)
			buf[--n] = '\0';
		else if (ch > ' ' && ch < KEY_DEL && n < DELAY_INPUT_LEN - 1) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
	curs_set(0);
	if (sig_exiting || ch == KEY_ESC || !n)
		top_set_msg(v, MSG_SECS, "delay unchanged");
	else if (cli_parse_delay(buf, &d))
		top_set_msg(v, MSG_SECS, "bad delay '%s': %.1f to %.0f seconds",
			    buf, TOP_MIN_DELAY_S, TOP_MAX_DELAY_S);
	else {
		v->delay = d;
		top_set_msg(v, MSG_SECS, "delay %.3gs", d);
	}
}

static void move_sel(struct top_state *s, int to)
{
	struct top_view *v = &s->view;
	const struct top_data *d = s->shown;

	if (!d->nr_rows)
		return;
	if (to < 0)
		to = 0;
	if (to >= d->nr_rows)
		to = d->nr_rows - 1;
	v->sel = to;
	v->sel_set = true;
	v->sel_cpu = d->rows[to].cpu;
	v->sel_zone = d->rows[to].zone;
}

static void cycle_zone(struct top_state *s)
{
	struct top_view *v = &s->view;
	const struct top_data *d = s->shown;
	int i;

	if (v->zone_filter == ZF_ALL) {
		v->zone_filter = d->nr_zones ? d->zones[0] : ZF_ALL;
		return;
	}
	for (i = 0; i < d->nr_zones; i++)
		if (d->zones[i] == v->zone_filter)
			break;
	v->zone_filter = i + 1 < d->nr_zones ? d->zones[i + 1] : ZF_ALL;
}

/* false when the key asks to quit */
static bool on_key(struct top_state *s, int ch)
{
	struct top_view *v = &s->view;
	int page = LINES / 2 > 1 ? LINES / 2 : 1;

	if (ch == KEY_RESIZE)
		return true;
	if (v->help) {
		v->help = false;
		return true;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case 'h':
	case '?':
		v->help = true;
		return true;
	case KEY_UP:
		move_sel(s, v->sel - 1);
		return true;
	case KEY_DOWN:
		move_sel(s, v->sel + 1);
		return true;
	case KEY_PPAGE:
		move_sel(s, v->sel - page);
		return true;
	case KEY_NPAGE:
		move_sel(s, v->sel + page);
		return true;
	case KEY_HOME:
		move_sel(s, 0);
		return true;
	case KEY_END:
		move_sel(s, s->shown->nr_rows - 1);
		return true;
	case 's':
	case '>':
		v->sort_col = (v->sort_col + 1) % top_nr_cols;
		break;
	case '<':
		v->sort_col = (v->sort_col + top_nr_cols - 1) % top_nr_cols;
		break;
	case 'z':
		cycle_zone(s);
		break;
	case 'c':
		v->summed = !v->summed;
		break;
	case 'H':
	case '\t':
		v->pane = top_next_pane(&s->ctx, v->pane);
		return true;
	case ' ':
		v->paused = !v->paused;
		if (!v->paused && s->latest_new)
			top_show_latest(s);
		return true;
	case 'd':
		prompt_delay(s);
		return true;
	case KEY_CTRL_L:
		clearok(curscr, TRUE);
		return true;
	default:
		return true;
	}
	/* sort, zone and summing change the rows themselves */
	top_rows_build(&s->ctx, v, s->shown);
	return true;
}

int top_screen_open(struct top_state *s)
{
	const char *term = getenv("TERM");
	char dir[TERMINFO_DIR_LEN];

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term)
		return -ENOTTY;
	s->scr = newterm(NULL, stdout, stdin);
	/* no database, or no entry for TERM in it: pcptop's own */
	if (!s->scr && !terminfo_builtin_use(term, dir, sizeof(dir))) {
		s->scr = newterm(NULL, stdout, stdin);
		terminfo_builtin_drop(dir, term);
		if (s->scr)
			top_set_msg(
				&s->view, MSG_SECS * 2,
				"no terminfo for TERM=%s here: using pcptop's built-in %s entry",
				term, terminfo_builtin_name(term));
	}
	if (!s->scr)
		return -ENOTTY;
	set_term(s->scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(ESC_DELAY_MS);
	/* some terminals cannot hide the cursor: that is fine */
	curs_set(0);
	return 0;
}

void top_screen_close(struct top_state *s)
{
	if (!s->scr)
		return;
	/*
	 * Without an alternate screen (vt100, the Linux console) the last
	 * frame stays; the shell's prompt comes on the bottom line, so clear
	 * it rather than leave the prompt in the middle of old text.
	 */
	move(LINES - 1, 0);
	clrtoeol();
	refresh();
	endwin();
	delscreen(s->scr);
	s->scr = NULL;
}

int top_screen_run(struct top_state *s, long count)
{
	struct top_view *v = &s->view;
	double next, now, wake;
	long frames = 0;
	int ch, err;

	for (;;) {
		/* from the last sample, so a new delay counts at once */
		next = s->last_sample + v->delay;
		now = clock_mono_s();
		if (now >= next) {
			err = top_sample(s);
			if (err)
				return err;
			frames++;
			next = s->last_sample + v->delay;
		}
		if (v->msg[0] && now >= v->msg_until)
			v->msg[0] = '\0';
		err = draw(s);
		if (err)
			return err;
		if (sig_exiting || (count && frames >= count))
			return 0;

		wake = v->msg[0] && v->msg_until < next ? v->msg_until : next;
		now = clock_mono_s();
		timeout(wake > now ? (int)((wake - now) * MSEC_PER_SEC) + 1 :
				     0);
		ch = getch();
		if (ch == ERR)
			continue;
		if (!on_key(s, ch))
			return 0;
	}
}
