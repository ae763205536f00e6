import DefaultTheme from 'vitepress/theme';
import './custom.css';

/** VitePress's default theme, with the few styles of custom.css. */
export default DefaultTheme;
