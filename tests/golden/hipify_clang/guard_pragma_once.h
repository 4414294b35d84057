#ifndef EVENT_TIMER_H
#pragma once
#define EVENT_TIMER_H

struct event_timer {
    cudaEvent_t start, stop;
};

#endif // EVENT_TIMER_H
