package ntfysprig

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"text/template"
)

// ntfy's fork converts numbers with strconv and reflect (util/sprig/numeric.go); Masterminds
// uses spf13/cast, which reads "010" as octal, "0x10" as hex and "3.0" as 3. These re-create
// ntfy's conversions for every function that uses them.

func ntfyInt64(v any) int64 {
	if s, ok := v.(string); ok {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0
		}
		return i
	}
	val := reflect.Indirect(reflect.ValueOf(v))
	switch val.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return val.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := val.Uint()
		if u > math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(u)
	case reflect.Float32, reflect.Float64:
		return int64(val.Float())
	case reflect.Bool:
		if val.Bool() {
			return 1
		}
	}
	return 0
}

func ntfyFloat64(v any) float64 {
	if s, ok := v.(string); ok {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0
		}
		return f
	}
	val := reflect.Indirect(reflect.ValueOf(v))
	switch val.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(val.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(val.Uint())
	case reflect.Float32, reflect.Float64:
		return val.Float()
	case reflect.Bool:
		if val.Bool() {
			return 1
		}
	}
	return 0
}

func reduceInt(f func(a, b int64) int64) func(any, ...any) int64 {
	return func(a any, rest ...any) int64 {
		acc := ntfyInt64(a)
		for _, b := range rest {
			acc = f(acc, ntfyInt64(b))
		}
		return acc
	}
}

func reduceFloat(f func(a, b float64) float64) func(any, ...any) float64 {
	return func(a any, rest ...any) float64 {
		acc := ntfyFloat64(a)
		for _, b := range rest {
			acc = f(acc, ntfyFloat64(b))
		}
		return acc
	}
}

func addNtfyNumeric(m template.FuncMap) {
	maxInt := reduceInt(func(a, b int64) int64 { return max(a, b) })
	minInt := reduceInt(func(a, b int64) int64 { return min(a, b) })
	m["add1"] = func(i any) int64 { return ntfyInt64(i) + 1 }
	m["add"] = func(i ...any) int64 {
		var a int64
		for _, b := range i {
			a += ntfyInt64(b)
		}
		return a
	}
	m["sub"] = func(a, b any) int64 { return ntfyInt64(a) - ntfyInt64(b) }
	m["div"] = func(a, b any) int64 { return ntfyInt64(a) / ntfyInt64(b) }
	m["mod"] = func(a, b any) int64 { return ntfyInt64(a) % ntfyInt64(b) }
	m["mul"] = reduceInt(func(a, b int64) int64 { return a * b })
	m["max"], m["biggest"], m["min"] = maxInt, maxInt, minInt
	m["maxf"] = reduceFloat(math.Max)
	m["minf"] = reduceFloat(math.Min)
	m["floor"] = func(a any) float64 { return math.Floor(ntfyFloat64(a)) }
	m["ceil"] = func(a any) float64 { return math.Ceil(ntfyFloat64(a)) }
	m["round"] = func(a any, p int, rOpt ...float64) float64 {
		roundOn := .5
		if len(rOpt) > 0 {
			roundOn = rOpt[0]
		}
		pow := math.Pow(10, float64(p))
		digit := pow * ntfyFloat64(a)
		if _, frac := math.Modf(digit); frac >= roundOn {
			return math.Ceil(digit) / pow
		}
		return math.Floor(digit) / pow
	}
	m["toDecimal"] = func(v any) int64 {
		r, err := strconv.ParseInt(fmt.Sprint(v), 8, 64)
		if err != nil {
			return 0
		}
		return r
	}
	slice := func(list any, indices ...any) (any, error) {
		if k := reflect.TypeOf(list).Kind(); k != reflect.Slice && k != reflect.Array {
			return nil, fmt.Errorf("list should be type of slice or array but %s", k)
		}
		l := reflect.ValueOf(list)
		if l.Len() == 0 {
			return nil, nil
		}
		start, end := 0, l.Len()
		if len(indices) > 0 {
			start = int(ntfyInt64(indices[0]))
		}
		if len(indices) > 1 {
			end = int(ntfyInt64(indices[1]))
		}
		return l.Slice(start, end).Interface(), nil
	}
	m["slice"], m["mustSlice"] = slice, slice
}
