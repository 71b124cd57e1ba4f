import { render } from "preact";
import { App } from "./app.tsx";
import { WrongAddressPage } from "./pages/wrong-address.tsx";

// The server names the address it is configured as (CAIRN_ISSUER); opened at another, the app
// could not sign anyone in, so it says how to reach it instead.
const issuer = document.querySelector<HTMLMetaElement>('meta[name="cairn-issuer"]')?.content;
const configured = issuer ? new URL(issuer).origin : location.origin;
const root = document.getElementById("app") as HTMLElement;
render(configured === location.origin ? <App /> : <WrongAddressPage opened={location.origin} issuer={configured} />, root);
